// Lesson videos (pure, shared by the lesson forms' validation, the player and the CSP's frame-src). A video URL
// (YouTube, Vimeo, a direct .mp4/.webm/.ogg file) or an embed code. Embed codes are never rendered as HTML: only the
// first iframe's `src` is read, it must be https on the allow-list below, and the player draws its own
// <iframe> from it. See docs/decisions/0005-media-storage-and-embeds.md.
export type VideoProvider = "youtube" | "vimeo" | "wistia" | "loom" | "bunny" | "cloudflare" | "google-drive" | "panda" | "dailymotion";

export type VideoSource = { kind: "iframe"; provider: VideoProvider; src: string } | { kind: "file"; src: string; type: string };

export const EMBED_NOT_ALLOWED = "Código iframe não permitido: use um vídeo do YouTube, Vimeo ou outro provedor suportado.";
export const EMBED_UNREADABLE = 'Código iframe inválido: cole o código de incorporação (<iframe src="https://…">) do provedor de vídeo.';
export const VIDEO_URL_NOT_SUPPORTED = "URL de vídeo não suportada: use um link do YouTube, do Vimeo ou de um arquivo .mp4, .webm ou .ogg.";

/** Hosts (and path shapes) whose players may be embedded. Everything else is refused. */
export const EMBED_PROVIDERS: { provider: VideoProvider; host: RegExp; path: RegExp; label: string }[] = [
  { provider: "youtube", host: /^(www\.|m\.)?youtube(-nocookie)?\.com$/, path: /^\/embed\/[\w-]+\/?$/, label: "YouTube" },
  { provider: "vimeo", host: /^player\.vimeo\.com$/, path: /^\/video\/\d+\/?$/, label: "Vimeo" },
  { provider: "wistia", host: /^fast\.wistia\.(net|com)$/, path: /^\/embed\/(iframe|medias)\/[\w-]+\/?$/, label: "Wistia" },
  { provider: "loom", host: /^(www\.)?loom\.com$/, path: /^\/embed\/[\w-]+\/?$/, label: "Loom" },
  { provider: "bunny", host: /^(iframe|player)\.mediadelivery\.net$/, path: /^\/(embed|play)\/\d+\/[\w-]+\/?$/, label: "Bunny Stream" },
  { provider: "cloudflare", host: /^customer-[a-z0-9]+\.cloudflarestream\.com$/, path: /^\/[\w-]+\/iframe\/?$/, label: "Cloudflare Stream" },
  { provider: "cloudflare", host: /^iframe\.(videodelivery\.net|cloudflarestream\.com)$/, path: /^\/[\w-]+\/?$/, label: "Cloudflare Stream" },
  { provider: "google-drive", host: /^drive\.google\.com$/, path: /^\/file\/d\/[\w-]+\/preview\/?$/, label: "Google Drive" },
  { provider: "panda", host: /^player-vz-[a-z0-9-]+\.tv\.pandavideo\.com\.br$/, path: /^\/embed\/?$/, label: "Panda Video" },
  { provider: "dailymotion", host: /^(www\.)?dailymotion\.com$/, path: /^\/embed\/video\/[\w-]+\/?$/, label: "Dailymotion" },
  { provider: "dailymotion", host: /^geo\.dailymotion\.com$/, path: /^\/player(\/[\w-]+)?\.html$/, label: "Dailymotion" },
];

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const YOUTUBE_HOSTS = /^(www\.|m\.|music\.)?youtube(-nocookie)?\.com$/;
/** YouTube player parameters kept from a link or an embed code. */
const YOUTUBE_PARAMS = ["start", "end", "list"];

function parseUrl(value: string): URL | null {
  try {
    const url = new URL(value.trim().startsWith("//") ? `https:${value.trim()}` : value.trim());
    if (url.username || url.password || url.port) return null;
    return url;
  } catch {
    return null;
  }
}

/** `90`, `90s`, `1m30s`, `1h2m3s` → seconds. */
function parseStart(value: string | null): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value);
  const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(value);
  if (!match || !match[0]) return null;
  return Number(match[1] ?? 0) * 3600 + Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0);
}

function youtubeEmbed(id: string, params: URLSearchParams): string {
  const out = new URLSearchParams();
  const start = parseStart(params.get("start") ?? params.get("t"));
  if (start) out.set("start", String(start));
  for (const key of YOUTUBE_PARAMS) if (key !== "start" && params.get(key)) out.set(key, params.get(key)!);
  const query = out.toString();
  return `https://www.youtube-nocookie.com/embed/${id}${query ? `?${query}` : ""}`;
}

/** watch, youtu.be, shorts, live, embed links → the privacy-enhanced embed URL. */
export function youtubeEmbedUrl(value: string): string | null {
  const url = parseUrl(value);
  if (!url || !/^https?:$/.test(url.protocol)) return null;
  const host = url.hostname.toLowerCase();
  let id: string | null = null;
  if (host === "youtu.be" || host === "www.youtu.be") id = url.pathname.split("/")[1] ?? null;
  else if (YOUTUBE_HOSTS.test(host)) {
    const [, first, second] = url.pathname.split("/");
    if (first === "watch") id = url.searchParams.get("v");
    else if (["shorts", "embed", "live", "v", "e"].includes(first ?? "")) {
      if (first === "embed" && second === "videoseries" && url.searchParams.get("list")) {
        return `https://www.youtube-nocookie.com/embed/videoseries?list=${encodeURIComponent(url.searchParams.get("list")!)}`;
      }
      id = second ?? null;
    }
  }
  return id && YOUTUBE_ID.test(id) ? youtubeEmbed(id, url.searchParams) : null;
}

/** vimeo.com/{id}, vimeo.com/{id}/{hash}, channels/groups links, player links → the player URL. */
export function vimeoEmbedUrl(value: string): string | null {
  const url = parseUrl(value);
  if (!url || !/^https?:$/.test(url.protocol)) return null;
  const host = url.hostname.toLowerCase();
  const segments = url.pathname.split("/").filter(Boolean);
  let id: string | undefined;
  let hash = url.searchParams.get("h") ?? undefined;
  if (host === "player.vimeo.com" && segments[0] === "video") id = segments[1];
  else if (host === "vimeo.com" || host === "www.vimeo.com") {
    const index = segments.findIndex((s) => /^\d+$/.test(s));
    if (index >= 0) {
      id = segments[index];
      const next = segments[index + 1];
      if (next && /^[0-9a-f]{6,}$/i.test(next)) hash = next;
    }
  }
  if (!id || !/^\d+$/.test(id)) return null;
  return `https://player.vimeo.com/video/${id}${hash && /^[0-9a-z]+$/i.test(hash) ? `?h=${hash}` : ""}`;
}

const FILE_TYPES: Record<string, string> = { mp4: "video/mp4", m4v: "video/mp4", webm: "video/webm", ogg: "video/ogg", ogv: "video/ogg" };

/** A direct video file (http/https, .mp4/.m4v/.webm/.ogg/.ogv) played by the browser's <video>. */
export function directVideoFile(value: string): { src: string; type: string } | null {
  const url = parseUrl(value);
  if (!url || !/^https?:$/.test(url.protocol)) return null;
  const ext = /\.([a-z0-9]+)$/i.exec(url.pathname)?.[1]?.toLowerCase();
  const type = ext ? FILE_TYPES[ext] : undefined;
  return type ? { src: url.toString(), type } : null;
}

/** An https player URL on the allow-list, normalised (YouTube → youtube-nocookie), or null. */
export function allowedEmbedSrc(value: string): { provider: VideoProvider; src: string } | null {
  const url = parseUrl(value);
  if (!url || url.protocol !== "https:") return null;
  const host = url.hostname.toLowerCase();
  const rule = EMBED_PROVIDERS.find((p) => p.host.test(host) && p.path.test(url.pathname));
  if (!rule) return null;
  if (rule.provider === "youtube") {
    const src = youtubeEmbedUrl(url.toString());
    return src ? { provider: "youtube", src } : null;
  }
  url.hash = "";
  return { provider: rule.provider, src: url.toString() };
}

const ENTITIES: Record<string, string> = { amp: "&", quot: '"', apos: "'", lt: "<", gt: ">", "#38": "&", "#34": '"', "#39": "'" };
const decodeEntities = (value: string) =>
  value.replace(/&(amp|quot|apos|lt|gt|#38|#34|#39|#x26);/gi, (_, name: string) => ENTITIES[name.toLowerCase()] ?? "&");

/** The `src` of the first <iframe> of an embed code (or the code itself when it is a bare URL). */
export function iframeSrc(code: string): string | null {
  const trimmed = code.trim();
  if (/^(https?:)?\/\//i.test(trimmed) && !/[\s<>"']/.test(trimmed)) return trimmed;
  const tag = /<iframe\b((?:[^>"']|"[^"]*"|'[^']*')*)>/i.exec(trimmed);
  if (!tag) return null;
  const src = /(?:^|\s)src\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i.exec(tag[1]!);
  if (!src) return null;
  return decodeEntities((src[1] ?? src[2] ?? src[3] ?? "").trim()) || null;
}

export type EmbedCheck = { ok: true; provider: VideoProvider; src: string } | { ok: false; message: string };

/** Validates an embed code for saving: readable, and its src on the allow-list. */
export function checkEmbedCode(code: string): EmbedCheck {
  const src = iframeSrc(code);
  if (!src) return { ok: false, message: EMBED_UNREADABLE };
  const allowed = allowedEmbedSrc(src);
  return allowed ? { ok: true, ...allowed } : { ok: false, message: EMBED_NOT_ALLOWED };
}

/** What a video URL plays as: YouTube/Vimeo/allowed player → iframe, a direct file → <video>. */
export function videoFromUrl(value: string): VideoSource | null {
  const youtube = youtubeEmbedUrl(value);
  if (youtube) return { kind: "iframe", provider: "youtube", src: youtube };
  const vimeo = vimeoEmbedUrl(value);
  if (vimeo) return { kind: "iframe", provider: "vimeo", src: vimeo };
  const file = directVideoFile(value);
  if (file) return { kind: "file", ...file };
  const embed = allowedEmbedSrc(value);
  return embed ? { kind: "iframe", ...embed } : null;
}

/** The lesson's player: the video URL when it is playable, else the embed code's allowed src. */
export function resolveLessonVideo(videoUrl: string | null | undefined, iframe: string | null | undefined): VideoSource | null {
  if (videoUrl?.trim()) {
    const fromUrl = videoFromUrl(videoUrl);
    if (fromUrl) return fromUrl;
  }
  if (iframe?.trim()) {
    const embed = checkEmbedCode(iframe);
    if (embed.ok) return { kind: "iframe", provider: embed.provider, src: embed.src };
  }
  return null;
}
