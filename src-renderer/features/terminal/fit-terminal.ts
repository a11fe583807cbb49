/**
 * Columns and rows that fit `container`, measured with a probe span in the terminal's font
 * (the fit addon isn't among our dependencies; this is the part of it we need).
 */
export function measureGrid(
  container: HTMLElement,
  font: { family: string; size: number },
): { cols: number; rows: number } {
  const probe = document.createElement('span');
  probe.style.cssText = `position:absolute;visibility:hidden;white-space:pre;font-family:${font.family};font-size:${font.size}px;line-height:normal`;
  probe.textContent = 'W'.repeat(20);
  container.appendChild(probe);
  const rect = probe.getBoundingClientRect();
  probe.remove();
  const cellWidth = rect.width / 20 || font.size * 0.6;
  const cellHeight = rect.height || font.size * 1.2;
  const cols = Math.max(20, Math.floor((container.clientWidth - 16) / cellWidth));
  const rows = Math.max(5, Math.floor((container.clientHeight - 16) / cellHeight));
  return { cols, rows };
}
