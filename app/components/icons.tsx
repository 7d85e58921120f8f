// The app's icons: inline strokes (24×24, currentColor, decorative). No icon library: each is a few
// bytes of path data. Default 20 px; glyphs drawn for small sizes (course and player icons) use a
// heavier stroke.
import { Fragment, isValidElement, type ReactNode, type SVGProps } from "react";

export type IconProps = Omit<SVGProps<SVGSVGElement>, "children" | "dangerouslySetInnerHTML"> & { size?: number };
export type IconComponent = (props: IconProps) => ReactNode;

const escapeAttribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/**
 * The SVG markup of an icon's shapes (path, circle, rect… with plain attributes), built once per icon. Every page
 * draws a few dozen icons; handing React their shapes as one string instead of elements makes each icon one
 * element to render and to hydrate instead of three to six (less work for the server's render of every page).
 */
function svgMarkup(node: ReactNode): string {
  if (node == null || typeof node === "boolean") return "";
  if (Array.isArray(node)) return node.map(svgMarkup).join("");
  if (!isValidElement<Record<string, unknown>>(node)) return escapeAttribute(String(node));
  const { children, ...attributes } = node.props;
  if (node.type === Fragment) return svgMarkup(children as ReactNode);
  if (typeof node.type !== "string") throw new Error("icons draw SVG shapes only");
  const attributeText = Object.entries(attributes)
    .map(([name, value]) => ` ${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${escapeAttribute(String(value))}"`)
    .join("");
  return `<${node.type}${attributeText}>${svgMarkup(children as ReactNode)}</${node.type}>`;
}

/** Builds a stroke icon with its default size and stroke weight (both can be overridden by props). */
export function createIcon(paths: ReactNode, defaults: { size?: number; strokeWidth?: number } = {}): IconComponent {
  const { size: defaultSize = 20, strokeWidth = 1.8 } = defaults;
  const shapes = { __html: svgMarkup(paths) };
  return function Icon({ size = defaultSize, ...props }: IconProps) {
    return (
      <svg
        width={size}
        height={size}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={strokeWidth}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
        {...props}
        dangerouslySetInnerHTML={shapes}
      />
    );
  };
}
const icon = (paths: ReactNode) => createIcon(paths);
/** Small glyphs (badges, buttons, the audio player): a 2 px stroke, 18 px by default. */
const bold = (paths: ReactNode, strokeWidth = 2) => createIcon(paths, { size: 18, strokeWidth });

export const HomeIcon = icon(
  <>
    <path d="M3 10.5 12 3l9 7.5" />
    <path d="M5 9.5V20a1 1 0 0 0 1 1h4v-6h4v6h4a1 1 0 0 0 1-1V9.5" />
  </>,
);
export const ChatIcon = icon(<path d="M21 11.5a8.5 8.5 0 0 1-12.4 7.6L3.5 20.5l1.5-4.6A8.5 8.5 0 1 1 21 11.5Z" />);
/** A video screen with a play mark (Teacher FLIX in the navigation). */
export const VideoIcon = icon(
  <>
    <rect x="3" y="5" width="18" height="14" rx="3" />
    <path d="m10 9 5 3-5 3Z" />
  </>,
);
export const FlaskIcon = icon(
  <>
    <path d="M9 3h6" />
    <path d="M10 3v6l-5.6 9.6A1.6 1.6 0 0 0 5.8 21h12.4a1.6 1.6 0 0 0 1.4-2.4L14 9V3" />
    <path d="M7.2 15h9.6" />
  </>,
);
export const SettingsIcon = icon(
  <>
    <path d="M4 6h9M17 6h3M4 12h3M11 12h9M4 18h11M19 18h1" />
    <circle cx="15" cy="6" r="2" />
    <circle cx="9" cy="12" r="2" />
    <circle cx="17" cy="18" r="2" />
  </>,
);
export const MenuIcon = icon(<path d="M4 6h16M4 12h16M4 18h16" />);
export const PanelLeftIcon = icon(
  <>
    <rect x="3" y="4" width="18" height="16" rx="2.5" />
    <path d="M9 4v16" />
  </>,
);
export const SunIcon = icon(
  <>
    <circle cx="12" cy="12" r="4" />
    <path d="M12 2.5v2M12 19.5v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2.5 12h2M19.5 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
  </>,
);
export const MoonIcon = icon(<path d="M20 14.5A8.5 8.5 0 1 1 9.5 4a7 7 0 0 0 10.5 10.5Z" />);
export const LogOutIcon = icon(
  <>
    <path d="M15 4h3a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-3" />
    <path d="m10 17-5-5 5-5M5 12h11" />
  </>,
);
export const CloseIcon = icon(<path d="M6 6l12 12M18 6 6 18" />);
export const CheckCircleIcon = icon(
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="m8 12.5 2.8 2.8L16 9.5" />
  </>,
);
export const AlertIcon = icon(
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7.5v5.5M12 16.5v.01" />
  </>,
);
export const InfoIcon = icon(
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 11v5.5M12 7.5v.01" />
  </>,
);
export const SparkleIcon = icon(<path d="M12 3l1.9 5.1L19 10l-5.1 1.9L12 17l-1.9-5.1L5 10l5.1-1.9Z" />);
export const CardsIcon = icon(
  <>
    <rect x="3" y="7" width="13" height="14" rx="2" />
    <path d="M8 3h11a2 2 0 0 1 2 2v11" />
  </>,
);
export const MicIcon = icon(
  <>
    <rect x="9" y="3" width="6" height="11" rx="3" />
    <path d="M5 11a7 7 0 0 0 14 0M12 18v3" />
  </>,
);
export const ChartIcon = icon(<path d="M3 21h18M6 17v-5M11 17V7M16 17v-8M21 17V4" />);
export const ArrowLeftIcon = icon(<path d="M19 12H5m6 6-6-6 6-6" />);
export const ArrowRightIcon = icon(<path d="M5 12h14m-6-6 6 6-6 6" />);
export const RefreshIcon = icon(
  <>
    <path d="M20 12a8 8 0 1 1-2.4-5.7L20 8.6" />
    <path d="M20 3.5v5h-5" />
  </>,
);
export const ClockIcon = icon(
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7v5l3 2" />
  </>,
);

export const FileIcon = icon(
  <>
    <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8Z" />
    <path d="M14 3v5h5" />
  </>,
);
export const DownloadIcon = icon(<path d="M12 4v11m-5-5 5 5 5-5M5 20h14" />);
export const TrashIcon = icon(<path d="M4 7h16M10 11v6m4-6v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3" />);

export const PlayIcon = bold(<path d="M8 5.5v13l11-6.5-11-6.5Z" />);
export const PauseIcon = bold(
  <>
    <path d="M9 5.5v13" />
    <path d="M15 5.5v13" />
  </>,
  2.5,
);
export const CheckIcon = bold(<path d="M5 12.5l4.5 4.5L19 7.5" />);
export const PencilIcon = bold(
  <>
    <path d="M4 20h4L19 9l-4-4L4 16v4Z" />
    <path d="m13.5 6.5 4 4" />
  </>,
);
export const ChevronLeftIcon = bold(<path d="m15 18-6-6 6-6" />);
export const ChevronRightIcon = bold(<path d="m9 18 6-6-6-6" />);
export const BookIcon = bold(
  <>
    <path d="M4 5.5A2.5 2.5 0 0 1 6.5 3H20v15H6.5A2.5 2.5 0 0 0 4 20.5v-15Z" />
    <path d="M4 20.5A2.5 2.5 0 0 1 6.5 18H20v3H6.5" />
  </>,
);
export const UploadIcon = bold(
  <>
    <path d="M12 16V4m-5 5 5-5 5 5" />
    <path d="M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3" />
  </>,
);
export const ReplyIcon = bold(<path d="M10 8 4 13l6 5m-6-5h10a6 6 0 0 1 6 6" />);

/** Nika's mark: a rounded square with an "N" speech tail. Decorative. */
export function NikaLogo({ size = 32, className }: { size?: number; className?: string }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false" className={className}>
      <path d="M8 2h16a6 6 0 0 1 6 6v12a6 6 0 0 1-6 6H13l-6 4v-4.4A6 6 0 0 1 2 20V8a6 6 0 0 1 6-6Z" fill="#4f46e5" />
      <path d="M10.5 20V9.5l11 10.5V9.5" fill="none" stroke="#fff" strokeWidth="2.6" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** A star (ratings): pass `fill="currentColor"` for an earned one. */
export const StarIcon = icon(<path d="m12 3.5 2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z" />);
