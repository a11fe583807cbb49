// Draws Hearth's placeholder icons (a flame on a warm rounded square) as PNGs with
// no image library: `node resources/icons/generate-icons.mjs`. The outputs are
// committed; rerun only to change the artwork. macOS .icns and Windows .ico are
// derived by electron-builder from 512x512.png (see docs/DESKTOP.md).
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));

function crc32(bytes) {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function png(size, pixel) {
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x++) row.set(pixel((x + 0.5) / size, (y + 0.5) / size), 1 + x * 4);
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Signed distance-ish test for a flame: a circle below merging into a point above. */
function inFlame(x, y, scale) {
  const cx = 0.5;
  const dx = (x - cx) / scale;
  const dy = (y - 0.62) / scale;
  if (Math.hypot(dx, dy) < 0.22) return true;
  if (dy < 0 && dy > -0.5) {
    const half = 0.22 * Math.sqrt(1 + dy / 0.5) * (1 + dy / 0.5);
    return Math.abs(dx + 0.06 * Math.sin(dy * 9)) < half;
  }
  return false;
}

function appIcon(x, y) {
  const r = 0.2;
  const qx = Math.max(Math.abs(x - 0.5) - (0.5 - r - 0.04), 0);
  const qy = Math.max(Math.abs(y - 0.5) - (0.5 - r - 0.04), 0);
  if (Math.hypot(qx, qy) > r) return [0, 0, 0, 0];
  if (inFlame(x, y, 0.62)) return inFlame(x, y + 0.05, 0.32) ? [255, 236, 170, 255] : [255, 140, 40, 255];
  const shade = Math.round(60 + 40 * (1 - y));
  return [shade + 40, shade - 10, 30, 255];
}

function trayIcon(x, y) {
  return inFlame(x, y, 0.95) ? [32, 32, 32, 255] : [0, 0, 0, 0];
}

for (const size of [512, 256]) writeFileSync(join(here, `${size}x${size}.png`), png(size, appIcon));
writeFileSync(join(here, 'icon.png'), png(512, appIcon));
writeFileSync(join(here, 'tray.png'), png(16, trayIcon));
writeFileSync(join(here, 'tray@2x.png'), png(32, trayIcon));
console.log('icons written to', here);
