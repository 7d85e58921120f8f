// Shared by the dev-time audio scripts (word-audio.mjs, feedback-sounds.mjs): run a command-line tool, read and
// write 16-bit mono PCM WAV.
import { spawnSync } from "node:child_process";

/** Runs `command` with `input` on stdin and returns its stdout (throws with its stderr when it fails). */
export function tool(command, args, input) {
  const result = spawnSync(command, args, { input, maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw new Error(`${command} not found (apt-get install espeak-ng lame): ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed: ${result.stderr.toString()}`);
  return result.stdout;
}

/** The PCM of a 16-bit mono WAV (eSpeak writes a streaming header whose sizes may be wrong: read to the end). */
export function readWav(buffer) {
  if (buffer.toString("ascii", 0, 4) !== "RIFF" || buffer.toString("ascii", 8, 12) !== "WAVE") throw new Error("not a WAV file");
  let offset = 12;
  let format = null;
  while (offset + 8 <= buffer.length) {
    const id = buffer.toString("ascii", offset, offset + 4);
    const size = buffer.readUInt32LE(offset + 4);
    if (id === "fmt ") {
      format = { channels: buffer.readUInt16LE(offset + 10), rate: buffer.readUInt32LE(offset + 12), bits: buffer.readUInt16LE(offset + 22) };
    } else if (id === "data") {
      if (!format || format.channels !== 1 || format.bits !== 16) throw new Error("expected 16-bit mono PCM");
      const end = Math.min(buffer.length, offset + 8 + size);
      const bytes = buffer.subarray(offset + 8, end - ((end - offset - 8) % 2));
      const samples = new Int16Array(bytes.length / 2);
      for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2);
      return { rate: format.rate, samples };
    }
    offset += 8 + size + (size % 2);
  }
  throw new Error("WAV without data chunk");
}

export function writeWav(samples, rate) {
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + samples.length * 2, 4);
  header.write("WAVEfmt ", 8, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(samples.length * 2, 40);
  const data = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) data.writeInt16LE(samples[i], i * 2);
  return Buffer.concat([header, data]);
}
