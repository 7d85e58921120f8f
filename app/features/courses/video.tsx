// The lesson player. Draws its own <iframe> (from an allow-listed src) or a <video>; an embed code is
// never injected as HTML. Import path for pages: `~/features/courses/video`.
import { resolveLessonVideo, type VideoSource } from "./video-embed";

export * from "./video-embed";

/** Permissions the players need (fullscreen, picture-in-picture, encrypted media); nothing else. */
const ALLOW = "accelerometer; autoplay; clipboard-write; encrypted-media; fullscreen; gyroscope; picture-in-picture; web-share";
/** A cross-origin player keeps its own origin and scripts but cannot navigate our page. */
const SANDBOX = "allow-scripts allow-same-origin allow-presentation allow-popups allow-popups-to-escape-sandbox allow-forms";

export type LessonVideoProps = { videoUrl: string | null; iframe: string | null; title: string; className?: string };

export function LessonVideo({ videoUrl, iframe, title, className = "" }: LessonVideoProps) {
  const source = resolveLessonVideo(videoUrl, iframe);
  return (
    <div className={`relative aspect-video w-full overflow-hidden rounded-2xl bg-black ${className}`}>
      <VideoFrame source={source} title={title} />
    </div>
  );
}

function VideoFrame({ source, title }: { source: VideoSource | null; title: string }) {
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
  return (
    <iframe
      src={source.src}
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
