/** "[##########..............]": `done` of `total` as a bar of `width` cells. */
export function progressBar(done: number, total: number, width = 24): string {
  const filled = total > 0 ? Math.min(width, Math.round((done / total) * width)) : width;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}
