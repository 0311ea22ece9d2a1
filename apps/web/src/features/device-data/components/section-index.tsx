/**
 * The Data page's section index (issue 32, UI.md 'Device page'): one bar under the timeline that
 * stays in sight under the navigation bar while the page scrolls. Its Sections button opens the
 * list of the page's sections in page order (the reading sections first, then widgets, charts,
 * remote triggers, custom settings, events, map and the command queue) and jumps to the one
 * chosen, opening it first when it was folded; beside it the section in view, and a button that
 * folds every reading section away or opens them all (remembered like a section's own toggle).
 *
 * The sections are found in the page: every element with an id and `data-dp-index` (its name)
 * is one; `data-dp-count` is its number of cards, `data-dp-folded` ('true' or 'false') marks a
 * reading section that folds. So a card added late (the charts load after the readings) joins
 * the list without the bar changing height: nothing on the page moves.
 */
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import './section-index.css';

interface IndexEntry {
  id: string;
  label: string;
  count: number | null;
  /** null: not a reading section (it does not fold). */
  folded: boolean | null;
}

export interface SectionIndexProps {
  /** Opens the folded reading section with this element id (before the jump to it). */
  onUnfold: (id: string) => void;
  /** Folds every reading section away (true) or opens them all (false). */
  onFoldAll: (folded: boolean) => void;
}

const same = (a: readonly IndexEntry[], b: readonly IndexEntry[]) =>
  a.length === b.length &&
  a.every((e, i) => {
    const o = b[i]!;
    return e.id === o.id && e.label === o.label && e.count === o.count && e.folded === o.folded;
  });

function readEntries(root: HTMLElement): IndexEntry[] {
  return Array.from(root.querySelectorAll<HTMLElement>('[data-dp-index]'))
    .filter((el) => el.id !== '' && el.dataset.dpIndex)
    .map((el) => {
      const count = Number(el.dataset.dpCount);
      const folded = el.dataset.dpFolded;
      return {
        id: el.id,
        label: el.dataset.dpIndex!,
        count: el.dataset.dpCount !== undefined && Number.isFinite(count) ? count : null,
        folded: folded === undefined ? null : folded === 'true',
      };
    });
}

/** Where a jump lands: the section's heading button or link, else its heading (made focusable), else the section. */
function focusTarget(section: HTMLElement): HTMLElement {
  const control = section.querySelector<HTMLElement>('h2 button, h2 a');
  if (control) return control;
  const heading = section.querySelector<HTMLElement>('h2') ?? section;
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  return heading;
}

export function SectionIndex({ onUnfold, onFoldAll }: SectionIndexProps) {
  const [entries, setEntries] = useState<IndexEntry[]>([]);
  const [open, setOpen] = useState(false);
  const [current, setCurrent] = useState<string | null>(null);
  const [jumpTo, setJumpTo] = useState<string | null>(null);
  const barRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const listId = useId();
  const hashHandled = useRef(false);
  /** The section last jumped to (the one in view at the foot of the page). */
  const lastJump = useRef<string | null>(null);

  // The sections as the page (the .dp-page around the bar) shows them, read again whenever the page changes.
  useLayoutEffect(() => {
    const root = barRef.current?.closest<HTMLElement>('.dp-page');
    if (!root) return;
    let frame = 0;
    const read = () => {
      frame = 0;
      const next = readEntries(root);
      setEntries((prev) => (same(prev, next) ? prev : next));
    };
    read();
    const observer = new MutationObserver(() => {
      if (frame === 0) frame = requestAnimationFrame(read);
    });
    observer.observe(root, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['id', 'data-dp-index', 'data-dp-count', 'data-dp-folded'],
    });
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  }, []);

  // The section in view: the last one whose top has passed under the bar (the first one before any
  // has); at the foot of the page, where the last sections cannot reach the bar, the one jumped to.
  useEffect(() => {
    let frame = 0;
    const update = () => {
      frame = 0;
      const bar = barRef.current?.getBoundingClientRect();
      if (!bar) return;
      let inView: string | null = entries[0]?.id ?? null;
      for (const entry of entries) {
        const el = document.getElementById(entry.id);
        if (el && el.getBoundingClientRect().top <= bar.bottom + 32) inView = entry.id;
      }
      const atFoot = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
      const jumped = lastJump.current === null ? null : document.getElementById(lastJump.current);
      if (atFoot && jumped && jumped.getBoundingClientRect().top < window.innerHeight) inView = lastJump.current;
      setCurrent(inView);
    };
    const onScroll = () => {
      if (frame === 0) frame = requestAnimationFrame(update);
    };
    update();
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onScroll);
      cancelAnimationFrame(frame);
    };
  }, [entries]);

  const jump = useCallback(
    (entry: IndexEntry) => {
      if (entry.folded) onUnfold(entry.id);
      setOpen(false);
      setJumpTo(entry.id);
    },
    [onUnfold],
  );

  // After the render that opened a folded section: to its heading, focus on it (keyboard users go on from there).
  useEffect(() => {
    if (jumpTo === null) return;
    setJumpTo(null);
    const section = document.getElementById(jumpTo);
    if (!section) return;
    lastJump.current = jumpTo;
    section.scrollIntoView({ block: 'start' });
    focusTarget(section).focus({ preventScroll: true });
    setCurrent(jumpTo);
  }, [jumpTo]);

  // A page opened at /data/{id}#dp-events (a copied link): to that section once it is there.
  useEffect(() => {
    if (hashHandled.current || !window.location.hash) return;
    const entry = entries.find((e) => `#${e.id}` === window.location.hash);
    if (!entry) return;
    hashHandled.current = true;
    jump(entry);
  }, [entries, jump]);

  // The open list closes on Escape (focus back on its button) and on a click or focus outside the bar.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      toggleRef.current?.focus();
    };
    const onOutside = (e: Event) => {
      if (barRef.current && e.target instanceof Node && !barRef.current.contains(e.target)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onOutside);
    document.addEventListener('focusin', onOutside);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onOutside);
      document.removeEventListener('focusin', onOutside);
    };
  }, [open]);

  const readings = entries.filter((e) => e.folded !== null);
  const more = entries.filter((e) => e.folded === null);
  const anyOpen = readings.some((e) => !e.folded);
  const currentLabel = entries.find((e) => e.id === current)?.label ?? null;

  const item = (entry: IndexEntry) => (
    <li key={entry.id}>
      <a
        href={`#${entry.id}`}
        className={`dp-index-link${entry.folded ? ' dp-index-link--folded' : ''}`}
        aria-current={entry.id === current ? 'location' : undefined}
        onClick={(e) => {
          e.preventDefault();
          jump(entry);
        }}
      >
        <span className="dp-index-label">{entry.label}</span>
        {entry.count !== null && <span className="dp-section-count dp-index-count">{entry.count}</span>}
        {entry.folded && <span className="dp-index-folded">folded</span>}
      </a>
    </li>
  );

  return (
    <div className="dp-index" ref={barRef}>
      <button
        ref={toggleRef}
        type="button"
        className="p-button p-button-sm p-button-outlined dp-index-toggle"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((o) => !o)}
      >
        <i className="pi pi-list" aria-hidden="true" /> Sections
        <i className={`pi ${open ? 'pi-chevron-up' : 'pi-chevron-down'} dp-index-chevron`} aria-hidden="true" />
      </button>
      <nav id={listId} className="dp-index-panel" aria-label="Sections of this page" hidden={!open}>
        {readings.length > 0 && (
          <>
            <p className="dp-index-group">Readings</p>
            <ul className="dp-index-list">{readings.map(item)}</ul>
          </>
        )}
        {more.length > 0 && (
          <>
            <p className="dp-index-group">More on this page</p>
            <ul className="dp-index-list">{more.map(item)}</ul>
          </>
        )}
      </nav>
      <span className="dp-index-current">{currentLabel ?? ''}</span>
      {readings.length > 0 && (
        <button
          type="button"
          className="p-button p-button-sm p-button-text dp-index-fold"
          onClick={() => onFoldAll(anyOpen)}
        >
          <i className={`pi ${anyOpen ? 'pi-minus' : 'pi-plus'}`} aria-hidden="true" />{' '}
          {anyOpen ? 'Fold all' : 'Open all'}
          <span className="dp-index-fold-long"> readings</span>
        </button>
      )}
    </div>
  );
}
