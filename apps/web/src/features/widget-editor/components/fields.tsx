/**
 * The editor's list controls: the buttons that move and remove a list item, and the move itself.
 * The labelled fields are the shared ones in @/components/form/fields (under FieldScope 'we').
 */
/** Move up, move down and remove buttons of a list item, each named for it (keyboard reorder). */
export function ItemButtons({
  name,
  index,
  count,
  onMove,
  onRemove,
}: {
  name: string;
  index: number;
  count: number;
  onMove: (from: number, to: number) => void;
  onRemove: () => void;
}) {
  return (
    <div className="we-item__buttons">
      <button
        type="button"
        className="p-button p-button-text p-button-sm p-button-icon-only"
        aria-label={`Move ${name} up`}
        disabled={index === 0}
        onClick={() => onMove(index, index - 1)}
      >
        <i className="pi pi-arrow-up" aria-hidden="true" />
      </button>
      <button
        type="button"
        className="p-button p-button-text p-button-sm p-button-icon-only"
        aria-label={`Move ${name} down`}
        disabled={index === count - 1}
        onClick={() => onMove(index, index + 1)}
      >
        <i className="pi pi-arrow-down" aria-hidden="true" />
      </button>
      <button
        type="button"
        className="p-button p-button-text p-button-sm p-button-icon-only p-button-danger"
        aria-label={`Remove ${name}`}
        onClick={onRemove}
      >
        <i className="pi pi-trash" aria-hidden="true" />
      </button>
    </div>
  );
}

/** `list` with the item at `from` moved to `to`. */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}
