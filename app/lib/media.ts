// Pure media helpers shared by the server (storage.server.ts) and the browser (pre-flight checks):
// limits, key layout, public paths and image and audio sniffing by magic bytes.
// See docs/decisions/0005-media-storage-and-embeds.md.

/** Images (module image, banners, lesson thumbnail): spec §9 "image 5 MB". */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024; // 5 242 880
/** Lesson materials: spec §9 "material 50 MB (52428800 bytes)". */
export const MATERIAL_MAX_BYTES = 52_428_800;
/** Word recordings of flashcards: at most 2 MB of audio. */
export const AUDIO_MAX_BYTES = 2 * 1024 * 1024; // 2 097 152

export const IMAGE_FOLDERS = ["modules", "banners", "thumbnails"] as const;
export type ImageFolder = (typeof IMAGE_FOLDERS)[number];
/** Pictures and word recordings of flashcards uploaded by admins (decision 0012). */
export const FLASHCARDS_FOLDER = "flashcards";
/** Reference recordings of pronunciation levels uploaded by admins. */
export const PRONUNCIATION_FOLDER = "pronunciation";
/** Where the admin forms store their uploads: one unique key per file, never rewritten. */
export const UPLOAD_FOLDERS = [...IMAGE_FOLDERS, FLASHCARDS_FOLDER, PRONUNCIATION_FOLDER] as const;
export type UploadFolder = (typeof UPLOAD_FOLDERS)[number];
export const MATERIALS_FOLDER = "lesson-materials";
/** Learners' voice messages and Nika's spoken replies; served only to the conversation's owner. */
export const CHAT_AUDIO_FOLDER = "chat-audio";
/** Learners' pronunciation attempts (`{folder}/{userId}/{attemptId}.{ext}`); served only to their owner. */
export const PRONUNCIATION_ATTEMPTS_FOLDER = "pronunciation-attempts";
/** Every key the app writes starts with one of these (the media route serves nothing else). */
export const KEY_PREFIXES = [...UPLOAD_FOLDERS, MATERIALS_FOLDER, CHAT_AUDIO_FOLDER, PRONUNCIATION_ATTEMPTS_FOLDER] as const;

/** Public path of stored objects: `/media/<key>`. */
export const MEDIA_PATH = "/media/";

// ——— keys and paths ———

/** Spec §5: anything but letters, digits, dot and hyphen becomes `_` (ASCII letters: keys stay URL-safe). */
export function sanitizeFileName(name: string): string {
  const safe = name.replace(/[^a-zA-Z0-9.-]/g, "_");
  return safe.length > 0 ? safe.slice(-180) : "arquivo";
}

/** `{folder}/{uuid}.{ext}`: the key of an uploaded picture or recording. */
export function uploadKey(folder: UploadFolder, ext: string, id: string = crypto.randomUUID()): string {
  return `${folder}/${id}.${ext}`;
}

/** `lesson-materials/{lessonId}/{timestamp}_{safeName}` (spec §7: `{lessonId}/{timestamp}_{safeName}` in bucket lesson-materials). */
export function materialKey(lessonId: string, fileName: string, now: number = Date.now()): string {
  return `${MATERIALS_FOLDER}/${lessonId}/${now}_${sanitizeFileName(fileName)}`;
}

/** A key we may read or delete: one of our prefixes, plain segments, no traversal. */
export function isValidKey(key: string): boolean {
  if (key.length === 0 || key.length > 512) return false;
  const segments = key.split("/");
  if (!(KEY_PREFIXES as readonly string[]).includes(segments[0]!)) return false;
  if (segments.length < 2) return false;
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  return segments.every((s) => s.length > 0 && s !== "." && s !== ".." && !/[\\\u0000-\u001f]/.test(s));
}

export function publicPath(key: string): string {
  return MEDIA_PATH + key.split("/").map(encodeURIComponent).join("/");
}

/**
 * The key behind a URL that points to our storage: `/media/<key>` or the same path on the app's own
 * origin (`APP_URL`). Anything else (another host, a bucket-less path, traversal) is null.
 */
export function keyFromPublicUrl(url: string | null | undefined, appUrl?: string): string | null {
  if (!url) return null;
  let path: string;
  if (url.startsWith("/")) {
    if (url.startsWith("//")) return null;
    path = url.split(/[?#]/)[0]!;
  } else {
    try {
      const parsed = new URL(url);
      const own = appUrl ? new URL(appUrl).origin : null;
      if (!own || parsed.origin !== own) return null;
      path = parsed.pathname;
    } catch {
      return null;
    }
  }
  if (!path.startsWith(MEDIA_PATH)) return null;
  let key: string;
  try {
    key = path.slice(MEDIA_PATH.length).split("/").map(decodeURIComponent).join("/");
  } catch {
    return null;
  }
  return isValidKey(key) ? key : null;
}

// ——— image sniffing ———

export type SniffedImage = { mime: "image/jpeg" | "image/png" | "image/gif" | "image/webp" | "image/avif"; ext: string };

const ascii = (bytes: Uint8Array, start: number, length: number) => String.fromCharCode(...bytes.subarray(start, start + length));

/**
 * The brands of an ISO-BMFF file (AVIF, MP4, M4A…): the major brand at 8, the compatible brands from
 * 16 to the end of the `ftyp` box (within the first 256 bytes). None when there is no `ftyp` box.
 */
function isoBrands(bytes: Uint8Array): string[] {
  if (bytes.length < 12 || ascii(bytes, 4, 4) !== "ftyp") return [];
  const boxSize = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
  const end = Math.min(bytes.length, boxSize || bytes.length, 256);
  const brands = [ascii(bytes, 8, 4)];
  for (let i = 16; i + 4 <= end; i += 4) brands.push(ascii(bytes, i, 4));
  return brands;
}

/**
 * The image type by content (magic bytes), or null. JPEG, PNG, GIF, WebP and AVIF only; SVG (script
 * inside an image) and everything else are refused whatever the declared type says.
 */
export function sniffImage(bytes: Uint8Array): SniffedImage | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { mime: "image/jpeg", ext: "jpg" };
  if (bytes.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => bytes[i] === b)) {
    return { mime: "image/png", ext: "png" };
  }
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a")) return { mime: "image/gif", ext: "gif" };
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP") return { mime: "image/webp", ext: "webp" };
  if (bytes.length >= 16 && isoBrands(bytes).some((b) => b === "avif" || b === "avis")) return { mime: "image/avif", ext: "avif" };
  return null;
}

/** Browsers may display these inline; everything else the media route serves as an attachment. */
export const INLINE_IMAGE_TYPES: ReadonlySet<string> = new Set(["image/jpeg", "image/png", "image/gif", "image/webp", "image/avif"]);

// ——— audio sniffing ———

export type SniffedAudio = { mime: "audio/mpeg" | "audio/wav" | "audio/ogg" | "audio/mp4" | "audio/webm"; ext: string };

/** An MPEG-1/2/2.5 Layer III frame header (an MP3 without an ID3 tag): sync, a valid bitrate and rate. */
function isMp3Frame(bytes: Uint8Array): boolean {
  if (bytes.length < 4 || bytes[0] !== 0xff || (bytes[1]! & 0xe0) !== 0xe0) return false;
  const version = (bytes[1]! >> 3) & 0b11; // 01 is reserved
  const layer = (bytes[1]! >> 1) & 0b11; // 01 is Layer III
  const bitrate = bytes[2]! >> 4; // 1111 is invalid ("free" 0000 is allowed)
  const rate = (bytes[2]! >> 2) & 0b11; // 11 is reserved
  return version !== 0b01 && layer === 0b01 && bitrate !== 0b1111 && rate !== 0b11;
}

/**
 * The audio type by content (magic bytes), or null: MP3 (ID3 tag or a Layer III frame), WAV, Ogg,
 * M4A (an ISO-BMFF file branded M4A/M4B — not any MP4) and WebM (EBML with the `webm` doctype).
 * Everything else — text named .mp3, images, video containers, executables — is refused.
 */
export function sniffAudio(bytes: Uint8Array): SniffedAudio | null {
  if (bytes.length >= 10 && ascii(bytes, 0, 3) === "ID3" && bytes[3]! >= 2 && bytes[3]! <= 4 && bytes[4] !== 0xff) {
    return { mime: "audio/mpeg", ext: "mp3" };
  }
  if (isMp3Frame(bytes)) return { mime: "audio/mpeg", ext: "mp3" };
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WAVE") return { mime: "audio/wav", ext: "wav" };
  if (bytes.length >= 5 && ascii(bytes, 0, 4) === "OggS" && bytes[4] === 0) return { mime: "audio/ogg", ext: "ogg" };
  if (isoBrands(bytes).some((b) => b === "M4A " || b === "M4B ")) return { mime: "audio/mp4", ext: "m4a" };
  if (bytes.length >= 8 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) {
    // EBML header: its DocType element (id 0x4282, size 4) says "webm" (Matroska says "matroska").
    if (ascii(bytes, 4, Math.min(bytes.length, 64) - 4).includes("\x42\x82\x84webm")) return { mime: "audio/webm", ext: "webm" };
  }
  return null;
}

/** Audio the media route serves inline (the types sniffAudio gives). */
export const INLINE_AUDIO_TYPES: ReadonlySet<string> = new Set(["audio/mpeg", "audio/wav", "audio/ogg", "audio/mp4", "audio/webm"]);
