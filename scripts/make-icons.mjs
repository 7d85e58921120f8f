#!/usr/bin/env node
// Dev-time only: generates the Nika PWA icons from a single SVG design.
//   node scripts/make-icons.mjs
// Writes public/icons/{icon.svg,icon-192.png,icon-512.png,maskable-512.png,
// apple-touch-icon.png} and public/favicon.svg. The generated files are
// committed; `sharp` is only needed when re-running this script.
// The service worker precaches the icons, revisioned by their content when it is built (scripts/vite-sw.ts).
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const iconsDir = join(root, "public", "icons");

const GRADIENT_FROM = "#4f46e5"; // indigo-600
const GRADIENT_TO = "#7c3aed"; // violet-600
const LETTER = "#4338ca"; // indigo-700

/**
 * The glyph: a white speech bubble with an "N" drawn as a stroked path
 * (no fonts, so every renderer draws it identically). Designed on a
 * 512×512 grid, centred around (256, 256).
 */
function glyph(scale) {
  return `<g transform="translate(256 256) scale(${scale}) translate(-256 -262)">
    <path fill="#ffffff" d="M168 112H344A64 64 0 0 1 408 176V288A64 64 0 0 1 344 352H232L168 408L176 352A64 64 0 0 1 104 288V176A64 64 0 0 1 168 112Z"/>
    <path fill="none" stroke="${LETTER}" stroke-width="38" stroke-linecap="round" stroke-linejoin="round" d="M204 294V170L308 294V170"/>
  </g>`;
}

/**
 * @param {{ radius: number, scale: number }} opts
 *   radius: corner radius of the background (0 = full-bleed square)
 *   scale:  glyph scale (maskable icons keep it inside the 80 % safe zone)
 */
function svg({ radius, scale }) {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512">
  <title>Nika</title>
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="512" y2="512" gradientUnits="userSpaceOnUse">
      <stop offset="0" stop-color="${GRADIENT_FROM}"/>
      <stop offset="1" stop-color="${GRADIENT_TO}"/>
    </linearGradient>
  </defs>
  <rect width="512" height="512" rx="${radius}" fill="url(#bg)"/>
  ${glyph(scale)}
</svg>
`;
}

const standard = svg({ radius: 112, scale: 1 });
// Maskable: full bleed, glyph shrunk into the safe zone (circle of radius 40 %).
const maskable = svg({ radius: 0, scale: 0.9 });
// iOS applies its own rounded mask and shows transparency as black.
const apple = svg({ radius: 0, scale: 0.95 });

async function png(source, size, file, { opaque = false } = {}) {
  let image = sharp(Buffer.from(source), { density: 72 * (size / 512) * 2 }).resize(size, size);
  if (opaque) image = image.removeAlpha(); // full-bleed icons have no transparency
  await image.png({ compressionLevel: 9 }).toFile(join(iconsDir, file));
  console.log(`wrote public/icons/${file} (${size}×${size})`);
}

await mkdir(iconsDir, { recursive: true });
await writeFile(join(iconsDir, "icon.svg"), standard);
await writeFile(join(root, "public", "favicon.svg"), standard);
console.log("wrote public/icons/icon.svg, public/favicon.svg");
await png(standard, 192, "icon-192.png");
await png(standard, 512, "icon-512.png");
await png(maskable, 512, "maskable-512.png", { opaque: true });
await png(apple, 180, "apple-touch-icon.png", { opaque: true });
