// The lesson player. Draws its own <iframe> (from an allow-listed src) or a <video>; an embed code is
// never injected as HTML. Import path for pages: `~/features/courses/video`.
// A provider's player (YouTube's is ≈ 1 MB of script) loads when the learner presses play, not with the page: until
// then the video area is the lesson's thumbnail and a play button. Without JavaScript the player is in <noscript>.
import { useState } from "react";
import { PlayIcon } from "~/components/icons";
import { useHydrated } from "~/lib/use-hydrated";
import { resolveLessonVideo, type VideoSource } from "~/lib/video-embed";
import { safeImageSrc } from "../format";

export * from "~/lib/video-embed";

/** Permissions the players need (fullscreen, picture-in-picture, encrypted media); nothing else. */
const ALLOW = "accelerometer; autoplay; clipboard-write; encrypted-media; fullscreen; gyroscope; picture-in-picture; web-share";
/** A cross-origin player keeps its own origin and scripts but cannot navigate our page. */
const SANDBOX = "allow-scripts allow-same-origin allow-presentation allow-popups allow-popups-to-escape-sandbox allow-forms";

export type LessonVideoProps = {
  videoUrl: string | null;
  iframe: string | null;
  title: string;
  thumbnailUrl?: string | null;
  className?: string;
};

export function LessonVideo({ videoUrl, iframe, title, thumbnailUrl = null, className = "" }: LessonVideoProps) {
  const source = resolveLessonVideo(videoUrl, iframe);
  return (
    <div className={`relative aspect-video w-full overflow-hidden rounded-2xl bg-black ${className}`}>
      <VideoFrame source={source} title={title} poster={safeImageSrc(thumbnailUrl)} />
    </div>
  );
}

/** The players that start on their own when asked in the URL, so pressing play on the facade is the only tap. */
const AUTOPLAY_PROVIDERS = new Set(["youtube", "vimeo"]);

function withAutoplay(source: Extract<VideoSource, { kind: "iframe" }>) {
  if (!AUTOPLAY_PROVIDERS.has(source.provider)) return source.src;
  const url = new URL(source.src);
  url.searchParams.set("autoplay", "1");
  return url.toString();
}

function VideoFrame({ source, title, poster }: { source: VideoSource | null; title: string; poster: string | null }) {
  if (!source) {
    return (
      <div className="absolute inset-0 flex flex-col items-center justify-center gap-2 p-6 text-center text-slate-200">
        <p className="font-semibold">Vídeo indisponível</p>
        <p className="text-sm text-slate-400">Esta aula ainda não tem um vídeo.</p>
      </div>
    );
  }
  if (source.kind === "file") {
    return (
      // eslint-disable-next-line jsx-a11y/media-has-caption -- a lesson has one video URL and no caption file to point a <track> at (yet)
      <video controls preload="metadata" playsInline className="absolute inset-0 h-full w-full" aria-label={`Vídeo: ${title}`}>
        <source src={source.src} type={source.type} />
        <a href={source.src}>Baixar o vídeo da aula</a>
      </video>
    );
  }
  return <PlayerFacade source={source} title={title} poster={poster} />;
}

function PlayerFacade({ source, title, poster }: { source: Extract<VideoSource, { kind: "iframe" }>; title: string; poster: string | null }) {
  const [playing, setPlaying] = useState(false);
  const hydrated = useHydrated();
  if (playing) return <Player src={withAutoplay(source)} title={title} />;
  return (
    <>
      {/* Disabled until the page's script runs: without JavaScript the <noscript> player covers it. */}
      <button
        type="button"
        onClick={() => setPlaying(true)}
        disabled={!hydrated}
        aria-label={`Assistir ao vídeo: ${title}`}
        className="group absolute inset-0 flex h-full w-full items-center justify-center focus-visible:outline-none"
      >
        {poster ? <img src={poster} alt="" decoding="async" className="absolute inset-0 h-full w-full object-cover" /> : null}
        <span className="relative flex size-16 items-center justify-center rounded-full bg-black/70 text-white shadow-lg transition group-hover:bg-indigo-600 group-focus-visible:ring-4 group-focus-visible:ring-indigo-400">
          <PlayIcon size={30} />
        </span>
      </button>
      <noscript>
        <Player src={source.src} title={title} />
      </noscript>
    </>
  );
}

function Player({ src, title }: { src: string; title: string }) {
  return (
    <iframe
      src={src}
      title={`Vídeo: ${title}`}
      allow={ALLOW}
      allowFullScreen
      loading="lazy"
      referrerPolicy="strict-origin-when-cross-origin"
      sandbox={SANDBOX}
      className="absolute inset-0 h-full w-full border-0"
    />
  );
}
