/** The group picker of Add Device (spec 2 sections 4 and 5: GRP-10, GRP-11, GRP-14). */

export interface PickableGroup {
  groupid: string;
  groupName: string;
}

/** GRP-10: in device-add mode the picker upper-cases typed text (group ids are upper case). */
export function groupPickerText(typed: unknown): string {
  return typeof typed === 'string' ? typed.toUpperCase() : '';
}

/** The group a picker text names: by id, else by name ignoring case; undefined when none does. */
export function findPickedGroup<G extends PickableGroup>(groups: readonly G[], text: string): G | undefined {
  const wanted = text.trim().toUpperCase();
  if (wanted === '') return undefined;
  return groups.find((g) => g.groupid === wanted) ?? groups.find((g) => g.groupName.toUpperCase() === wanted);
}

/**
 * GRP-11: the picker's selection once the user's groups are known: the group's id, or '' (no
 * group). A text naming no group of the user's is logged with `warn` and cleared.
 */
export function settlePickedGroup(
  groups: readonly PickableGroup[],
  text: string,
  warn: (message: string) => void,
): string {
  if (text.trim() === '') return '';
  const found = findPickedGroup(groups, text);
  if (found) return found.groupid;
  warn(`Group not found: ${text.trim()}; the group selection is cleared.`);
  return '';
}
