// Inline stroke icons of the learner course pages (24×24, currentColor, decorative).
import type { ReactNode } from "react";
import { createIcon } from "~/features/shell/icons";

const icon = (paths: ReactNode) => createIcon(paths, { size: 18, strokeWidth: 2 });

export const CheckIcon = icon(<path d="M5 12.5l4.5 4.5L19 7.5" />);
export const PlayIcon = icon(<path d="M8 5.5v13l11-6.5-11-6.5Z" />);
export const PencilIcon = icon(
  <>
    <path d="M4 20h4L19 9l-4-4L4 16v4Z" />
    <path d="m13.5 6.5 4 4" />
  </>,
);
export const ChevronLeftIcon = icon(<path d="m15 18-6-6 6-6" />);
export const ChevronRightIcon = icon(<path d="m9 18 6-6-6-6" />);
export const ClockIcon = icon(
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7v5l3 2" />
  </>,
);
export const BookIcon = icon(
  <>
    <path d="M4 5.5A2.5 2.5 0 0 1 6.5 3H20v15H6.5A2.5 2.5 0 0 0 4 20.5v-15Z" />
    <path d="M4 20.5A2.5 2.5 0 0 1 6.5 18H20v3H6.5" />
  </>,
);
export const ChatBubbleIcon = icon(<path d="M21 11.5a8.5 8.5 0 0 1-12.4 7.6L3.5 20.5l1.5-4.6A8.5 8.5 0 1 1 21 11.5Z" />);
export const UploadIcon = icon(
  <>
    <path d="M12 16V4m-5 5 5-5 5 5" />
    <path d="M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3" />
  </>,
);
export const ReplyIcon = icon(<path d="M10 8 4 13l6 5m-6-5h10a6 6 0 0 1 6 6" />);
export const SparkleIcon = icon(<path d="M12 3l1.9 5.1L19 10l-5.1 1.9L12 17l-1.9-5.1L5 10l5.1-1.9Z" />);
