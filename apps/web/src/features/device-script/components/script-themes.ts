/**
 * The script editor's light and dark themes: the editor's colours and a JavaScript highlight
 * style whose every colour reaches 4.5:1 (WCAG AA) on its ground and on the active line's
 * (CodeMirror's own one-dark greys its comments and line numbers at about 3.9:1).
 */
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import type { Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';
import type { ScriptTheme } from '@portal/core';

interface Palette {
  ground: string;
  activeLine: string;
  gutter: string;
  text: string;
  muted: string;
  selection: string;
  cursor: string;
  keyword: string;
  string: string;
  number: string;
  definition: string;
  property: string;
  type: string;
  invalid: string;
  bracket: string;
}

const PALETTES: Record<ScriptTheme, Palette> = {
  light: {
    ground: '#ffffff',
    activeLine: '#f1f5f9',
    gutter: '#f6f8fa',
    text: '#1f2937',
    muted: '#59636e',
    selection: '#cfe0f5',
    cursor: '#111827',
    keyword: '#a3174a',
    string: '#116329',
    number: '#0550ae',
    definition: '#6639ba',
    property: '#0550ae',
    type: '#8a4600',
    invalid: '#b42318',
    bracket: '#dbeafe',
  },
  dark: {
    ground: '#1b2029',
    activeLine: '#242b37',
    gutter: '#171b23',
    text: '#e6e8eb',
    muted: '#a3adba',
    selection: '#3a4a63',
    cursor: '#f5f7fa',
    keyword: '#f0a0c0',
    string: '#a8d89b',
    number: '#f5b27a',
    definition: '#b4a7f5',
    property: '#8ccfff',
    type: '#f2d07a',
    invalid: '#ff9b8f',
    bracket: '#3b4658',
  },
};

function themeOf(name: ScriptTheme): Extension {
  const p = PALETTES[name];
  const view = EditorView.theme(
    {
      '&': { color: p.text, backgroundColor: p.ground },
      '.cm-content': { caretColor: p.cursor, fontFamily: 'var(--font-mono)' },
      '.cm-cursor, .cm-dropCursor': { borderLeftColor: p.cursor },
      '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection': {
        backgroundColor: p.selection,
      },
      '.cm-activeLine': { backgroundColor: p.activeLine },
      '.cm-gutters': { backgroundColor: p.gutter, color: p.muted, borderRight: `1px solid ${p.bracket}` },
      '.cm-activeLineGutter': { backgroundColor: p.activeLine, color: p.text },
      '.cm-matchingBracket, .cm-nonmatchingBracket': { backgroundColor: p.bracket, outline: 'none' },
      '.cm-foldPlaceholder': { backgroundColor: p.gutter, color: p.muted, border: `1px solid ${p.bracket}` },
      '.cm-placeholder': { color: p.muted },
      '.cm-tooltip': { backgroundColor: p.ground, color: p.text, border: `1px solid ${p.bracket}` },
      '.cm-tooltip-autocomplete > ul > li[aria-selected]': { backgroundColor: p.selection, color: p.text },
      '.cm-searchMatch': { backgroundColor: p.bracket, outline: `1px solid ${p.muted}` },
      '.cm-panels': { backgroundColor: p.gutter, color: p.text },
    },
    { dark: name === 'dark' },
  );
  const highlight = HighlightStyle.define([
    { tag: [t.keyword, t.controlKeyword, t.operatorKeyword, t.modifier, t.definitionKeyword], color: p.keyword },
    { tag: [t.string, t.special(t.string), t.regexp, t.escape], color: p.string },
    { tag: [t.number, t.bool, t.null, t.atom], color: p.number },
    {
      tag: [t.function(t.variableName), t.function(t.propertyName), t.definition(t.variableName)],
      color: p.definition,
    },
    { tag: [t.propertyName, t.labelName], color: p.property },
    { tag: [t.typeName, t.className, t.namespace], color: p.type },
    { tag: [t.comment, t.lineComment, t.blockComment, t.docComment], color: p.muted, fontStyle: 'italic' },
    { tag: [t.meta, t.punctuation, t.bracket, t.operator], color: p.text },
    { tag: t.invalid, color: p.invalid },
  ]);
  return [view, syntaxHighlighting(highlight)];
}

export const SCRIPT_EDITOR_THEMES: Record<ScriptTheme, Extension> = {
  light: themeOf('light'),
  dark: themeOf('dark'),
};
