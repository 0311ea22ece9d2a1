import { useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import {
  canRemoveWidget,
  canResizeWidget,
  isEditableWidgetType,
  type LayoutStep,
  type Widget,
  type WidgetLayout,
} from '@portal/core';
import { DRAG_HANDLE_CLASS } from './dashboard-grid';

interface StepButton {
  step: LayoutStep;
  /** Icons: an arrow (moves), or minus / plus beside the horizontal or vertical arrows (resizes). */
  icons: readonly string[];
  words: (name: string) => string;
}

/** The keyboard's steps as buttons, with the words their labels say after the widget's name. */
const MOVES: readonly StepButton[] = [
  { step: 'left', icons: ['pi-arrow-left'], words: (n) => `Move ${n} left` },
  { step: 'up', icons: ['pi-arrow-up'], words: (n) => `Move ${n} up` },
  { step: 'down', icons: ['pi-arrow-down'], words: (n) => `Move ${n} down` },
  { step: 'right', icons: ['pi-arrow-right'], words: (n) => `Move ${n} right` },
];
const RESIZES: readonly StepButton[] = [
  { step: 'narrower', icons: ['pi-minus', 'pi-arrows-h'], words: (n) => `Make ${n} narrower` },
  { step: 'wider', icons: ['pi-plus', 'pi-arrows-h'], words: (n) => `Make ${n} wider` },
  { step: 'shorter', icons: ['pi-minus', 'pi-arrows-v'], words: (n) => `Make ${n} shorter` },
  { step: 'taller', icons: ['pi-plus', 'pi-arrows-v'], words: (n) => `Make ${n} taller` },
];

export interface WidgetEditBarProps {
  id: string;
  widget: Widget;
  /** The widget's name in labels: 'Chart 2'. */
  name: string;
  /** Its layout at the breakpoint shown ('column 1, row 3, 6 wide, 9 high'). */
  layout: WidgetLayout;
  /** The widget editor's URL (table, chart, headline). */
  editorPath: string;
  onStep: (id: string, step: LayoutStep) => void;
  onRemove: (id: string) => void;
}

/**
 * Edit mode's bar above a widget: the drag handle (its name; react-grid-layout drags by it), a
 * Move or resize button opening one-cell steps for keyboard users (the same layout update as a
 * drop), the widget editor's Edit link (not for a map, which has no settings) and Remove (not for
 * a table, spec 1 section 5).
 */
export function WidgetEditBar({ id, widget, name, layout, editorPath, onStep, onRemove }: WidgetEditBarProps) {
  const [open, setOpen] = useState(false);
  const buttons = useRef(new Map<LayoutStep, HTMLButtonElement>());
  const refocus = useRef<LayoutStep | null>(null);
  const panelId = `widget-${id}-steps`;
  const steps = canResizeWidget(widget.type) ? [...MOVES, ...RESIZES] : MOVES;

  // A step re-orders the grid's items, which can take the focus away: it goes back to the button.
  useLayoutEffect(() => {
    const step = refocus.current;
    if (!step) return;
    const button = buttons.current.get(step);
    if (button && document.activeElement !== button) button.focus();
  }, [layout]);

  const where = `column ${layout.x + 1}, row ${layout.y + 1}, ${layout.w} wide, ${layout.h} high`;
  return (
    <div className="widget-edit-bar">
      <div className="widget-edit-bar__row">
        <span className={`${DRAG_HANDLE_CLASS} widget-edit-bar__name`} title="Drag to move">
          <i className="pi pi-arrows-alt" aria-hidden="true" />
          <span>{name}</span>
        </span>
        <button
          type="button"
          className="widget-edit-bar__button"
          aria-label={`Move or resize ${name}`}
          title="Move or resize"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((was) => !was)}
        >
          <i className="pi pi-th-large" aria-hidden="true" />
        </button>
        {isEditableWidgetType(widget.type) && (
          <Link className="widget-edit-bar__button widget-edit-bar__edit" to={editorPath} aria-label={`Edit ${name}`}>
            <i className="pi pi-pencil" aria-hidden="true" />
            <span aria-hidden="true">Edit</span>
          </Link>
        )}
        {canRemoveWidget(widget.type) && (
          <button
            type="button"
            className="widget-edit-bar__button widget-edit-bar__remove"
            aria-label={`Remove ${name}`}
            title="Remove"
            onClick={() => onRemove(id)}
          >
            <i className="pi pi-trash" aria-hidden="true" />
          </button>
        )}
      </div>
      {open && (
        <div id={panelId} className="widget-edit-bar__steps" role="group" aria-label={`Move or resize ${name}`}>
          {steps.map(({ step, icons, words }) => (
            <button
              key={step}
              ref={(el) => {
                if (el) buttons.current.set(step, el);
                else buttons.current.delete(step);
              }}
              type="button"
              className="widget-edit-bar__button"
              aria-label={words(name)}
              title={words(name)}
              onClick={() => {
                refocus.current = step;
                onStep(id, step);
              }}
            >
              {icons.map((icon) => (
                <i
                  key={icon}
                  className={`pi ${icon}${icons.length > 1 ? ' widget-edit-bar__small-icon' : ''}`}
                  aria-hidden="true"
                />
              ))}
            </button>
          ))}
          <span className="widget-edit-bar__where" role="status">
            {where}
          </span>
        </div>
      )}
    </div>
  );
}
