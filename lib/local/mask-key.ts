/**
 * A client key as the start-up banner may show it: its first 4 characters, then "…". The banner goes to
 * the terminal and often into logs, so an operator's own key never appears in it whole; a key too short
 * to keep anything hidden after 4 characters is shown as "…" alone.
 */
export function maskKey(key: string): string {
  const visible = [...key.trim()];
  return visible.length > 8 ? `${visible.slice(0, 4).join('')}…` : '…';
}
