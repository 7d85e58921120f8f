// Pure helpers for lesson materials (spec §3 item, §9 sizes), shared by the server and the list.
import { saoPauloDate } from "~/lib/dates";
import type { DownloadableMaterial } from "./tables";

export type { DownloadableMaterial };

/** Shown next to the upload field (spec §5; the type is not enforced). */
export const MATERIAL_HINT_TYPES = ["pdf", "docx", "xlsx", "pptx", "png", "jpg", "jpeg", "zip"] as const;

/** Spec §9: B under 1 KB, KB with one decimal under 1 MB, else MB with one decimal. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The file name without its (last) extension. */
export function materialTitle(fileName: string): string {
  const title = fileName.replace(/\.[^./\\]*$/, "");
  return title.length > 0 ? title : fileName;
}

/** Upper-case extension, or FILE when there is none. */
export function materialType(fileName: string): string {
  const match = /\.([^./\\]+)$/.exec(fileName);
  return match && match[1]!.length <= 10 && materialTitle(fileName) !== fileName ? match[1]!.toUpperCase() : "FILE";
}

/** The stored file's name (`{timestamp}_{safeName}`): the last segment of its URL. */
export function materialFileId(material: Pick<DownloadableMaterial, "url">): string {
  const last = material.url.split(/[?#]/)[0]!.split("/").pop() ?? "";
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** Downloads go through the app (attachment, right content type), never straight to storage. */
export function materialDownloadPath(lessonId: string, material: Pick<DownloadableMaterial, "url">): string {
  return `/courses/lessons/${encodeURIComponent(lessonId)}/materials/${encodeURIComponent(materialFileId(material))}/download`;
}

export function materialsPath(lessonId: string): string {
  return `/courses/lessons/${encodeURIComponent(lessonId)}/materials`;
}

/** Upload date in Brazilian Portuguese, São Paulo time. Called by the server (withUploadLabels), never while a page hydrates. */
export function formatUploadDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return saoPauloDate(date);
}

/** A material as the list shows it: with its upload date already written out. */
export type MaterialView = DownloadableMaterial & { uploadedLabel: string };

/**
 * The server writes the dates out: a browser's first Intl formatter loads its ICU data inside the page's hydration,
 * where it counts as blocking time, most of all on a cheap phone (decision 0019).
 */
export function withUploadLabels(materials: DownloadableMaterial[]): MaterialView[] {
  return materials.map((material) => ({ ...material, uploadedLabel: formatUploadDate(material.uploadedAt) }));
}

const CONTENT_TYPES: Record<string, string> = {
  pdf: "application/pdf",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  zip: "application/zip",
  txt: "text/plain",
  csv: "text/csv",
  mp3: "audio/mpeg",
  mp4: "video/mp4",
};

/** The declared type when it says something, else a guess from the extension. */
export function materialContentType(fileName: string, declared?: string | null): string {
  const clean = declared?.split(";")[0]?.trim().toLowerCase();
  if (clean && clean !== "application/octet-stream" && /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(clean)) return clean;
  const ext = /\.([^.]+)$/.exec(fileName)?.[1]?.toLowerCase();
  return (ext && CONTENT_TYPES[ext]) || "application/octet-stream";
}
