// Decorative inline illustrations for the home and Labs cards (white shapes on a gradient panel).
import type { ReactNode } from "react";

/** The 112×112 decorative <svg> every illustration draws in (hidden from assistive technology). */
function ArtSvg({ children }: { children: ReactNode }) {
  return (
    <svg viewBox="0 0 112 112" aria-hidden focusable={false} className="h-auto w-full">
      {children}
    </svg>
  );
}

export const ChatArt = () => (
  <ArtSvg>
    <rect x="6" y="14" width="66" height="44" rx="14" fill="#fff" />
    <path d="M20 56v14l14-12Z" fill="#fff" />
    <text x="39" y="43" textAnchor="middle" fontSize="20" fontWeight="800" fill="#4338ca" fontFamily="system-ui, sans-serif">
      Hi!
    </text>
    <rect x="40" y="54" width="66" height="42" rx="14" fill="#fff" fillOpacity=".28" />
    <path d="M92 94v12L80 94Z" fill="#fff" fillOpacity=".28" />
    <circle cx="58" cy="75" r="4" fill="#fff" />
    <circle cx="73" cy="75" r="4" fill="#fff" />
    <circle cx="88" cy="75" r="4" fill="#fff" />
  </ArtSvg>
);

export const FlixArt = () => (
  <ArtSvg>
    <rect x="8" y="20" width="96" height="64" rx="12" fill="#fff" />
    <path d="M47 38v28l24-14Z" fill="#e11d48" />
    <rect x="20" y="92" width="72" height="6" rx="3" fill="#fff" fillOpacity=".35" />
    <rect x="20" y="92" width="40" height="6" rx="3" fill="#fff" />
    <circle cx="60" cy="95" r="6" fill="#fff" />
  </ArtSvg>
);

export const LabsArt = () => (
  <ArtSvg>
    <path
      d="M42 10h28M46 10v30L22 84a10 10 0 0 0 9 15h50a10 10 0 0 0 9-15L66 40V10"
      fill="none"
      stroke="#fff"
      strokeWidth="7"
      strokeLinecap="round"
      strokeLinejoin="round"
    />
    <path d="M31 74h50l7 12a6 6 0 0 1-5 8H29a6 6 0 0 1-5-8Z" fill="#fff" />
    <circle cx="52" cy="56" r="5" fill="#fff" />
    <circle cx="63" cy="44" r="3.5" fill="#fff" fillOpacity=".7" />
    <circle cx="86" cy="26" r="6" fill="#fff" fillOpacity=".4" />
  </ArtSvg>
);

export const FlashcardsArt = () => (
  <ArtSvg>
    <rect x="30" y="14" width="60" height="76" rx="10" fill="#fff" fillOpacity=".35" transform="rotate(10 60 52)" />
    <rect x="22" y="20" width="60" height="76" rx="10" fill="#fff" />
    <circle cx="52" cy="50" r="15" fill="#f59e0b" />
    <path d="M45 50c3 4 11 4 14 0" stroke="#fff" strokeWidth="3" strokeLinecap="round" fill="none" />
    <rect x="34" y="74" width="36" height="7" rx="3.5" fill="#0f766e" />
  </ArtSvg>
);

export const PronunciationArt = () => (
  <ArtSvg>
    <rect x="40" y="12" width="32" height="54" rx="16" fill="#fff" />
    <path d="M26 56a30 30 0 0 0 60 0M56 86v14M42 100h28" fill="none" stroke="#fff" strokeWidth="7" strokeLinecap="round" />
    <path d="M12 44v16M100 40v24M4 50v4M108 48v8" stroke="#fff" strokeOpacity=".55" strokeWidth="5" strokeLinecap="round" />
  </ArtSvg>
);

export const LevelTestArt = () => (
  <ArtSvg>
    <rect x="14" y="70" width="18" height="28" rx="5" fill="#fff" fillOpacity=".45" />
    <rect x="40" y="52" width="18" height="46" rx="5" fill="#fff" fillOpacity=".65" />
    <rect x="66" y="32" width="18" height="66" rx="5" fill="#fff" />
    <path d="M84 10l4 8 9 1-7 6 2 9-8-5-8 5 2-9-7-6 9-1Z" fill="#fde68a" />
  </ArtSvg>
);
