// Upload forms (the admin forms' pictures and recordings): files buffered up to their limit (bigger
// ones only counted), read through the one body helper (request.server.ts), which checks type and
// size before and while reading.
import { readMultipart } from "./request.server";

export type BufferedFile = {
  field: string;
  filename: string;
  contentType: string;
  size: number;
  /** The bytes, or null when the file was bigger than the limit (then only counted, never kept). */
  bytes: Uint8Array | null;
};

/**
 * Buffers the files of `fields` up to `maxFileBytes` each (one limit, or one per field); bigger files
 * are counted and dropped. An empty file input (no file chosen) yields nothing.
 */
export async function readFormWithFiles(
  request: Request,
  options: { fields: readonly string[]; maxFileBytes: number | Readonly<Record<string, number>>; maxBodyBytes: number },
): Promise<{ formData: FormData; files: Map<string, BufferedFile> }> {
  const files = new Map<string, BufferedFile>();
  const formData = await readMultipart(request, options.maxBodyBytes, async (part) => {
    if (!options.fields.includes(part.name) || files.has(part.name)) return undefined;
    const limit = typeof options.maxFileBytes === "number" ? options.maxFileBytes : (options.maxFileBytes[part.name] ?? 0);
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of part.data) {
      size += chunk.byteLength;
      if (size <= limit) chunks.push(chunk);
      else chunks.length = 0;
    }
    if (size === 0 && !part.filename) return undefined;
    let bytes: Uint8Array | null = null;
    if (size <= limit) {
      bytes = new Uint8Array(size);
      let offset = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, offset);
        offset += chunk.byteLength;
      }
    }
    files.set(part.name, { field: part.name, filename: part.filename ?? "", contentType: part.contentType, size, bytes });
    return undefined;
  });
  return { formData, files };
}
