/**
 * Which group home shows without a groupid in the URL (spec 1 section 2, HOME-02/03): the most
 * recent of the user's groups in the local recent list, else the user's first group, else none.
 */
export function chooseHomeGroup(
  recent: readonly { id: string; ts: number }[],
  groups: readonly { groupid: string }[],
): string | null {
  const mine = new Set(groups.map((g) => g.groupid));
  const newest = [...recent].sort((a, b) => b.ts - a.ts).find((entry) => mine.has(entry.id));
  return newest?.id ?? groups[0]?.groupid ?? null;
}
