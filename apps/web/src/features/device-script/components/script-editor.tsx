/**
 * The script editor: CodeMirror 6 with JavaScript highlighting in the light or dark theme. A lazy
 * chunk of its own, loaded by the Scripting page only when it shows the editor (not for a refusal
 * or a device whose firmware cannot run scripts). Tab indents; Escape then Tab leaves the editor
 * (CodeMirror's own way out); Ctrl/Cmd+S saves.
 */
import { useCallback, useMemo, useRef } from 'react';
import CodeMirror from '@uiw/react-codemirror';
import { javascript } from '@codemirror/lang-javascript';
import { Prec } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import type { ScriptTheme } from '@portal/core';
import { SCRIPT_EDITOR_THEMES } from './script-themes';

export interface ScriptEditorProps {
  value: string;
  onChange: (value: string) => void;
  theme: ScriptTheme;
  readOnly: boolean;
  /** Ctrl/Cmd+S in the editor. */
  onSave: () => void;
  /** The id of the text that describes the editor (its keys, why it is read-only). */
  describedBy: string;
}

export default function ScriptEditor({ value, onChange, theme, readOnly, onSave, describedBy }: ScriptEditorProps) {
  // Stable callbacks and options: the wrapper reconfigures the editor whenever one of them changes.
  const save = useRef(onSave);
  save.current = onSave;
  const change = useRef(onChange);
  change.current = onChange;
  const handleChange = useCallback((text: string) => change.current(text), []);
  const basicSetup = useMemo(() => ({ highlightActiveLine: !readOnly, autocompletion: !readOnly }), [readOnly]);
  const extensions = useMemo(
    () => [
      javascript(),
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({
        'aria-label': 'Device script',
        'aria-describedby': describedBy,
        'aria-multiline': 'true',
      }),
      Prec.highest(
        keymap.of([
          {
            key: 'Mod-s',
            preventDefault: true,
            run: () => {
              save.current();
              return true;
            },
          },
        ]),
      ),
    ],
    [describedBy],
  );
  return (
    <CodeMirror
      className="sc-editor"
      value={value}
      onChange={handleChange}
      theme={SCRIPT_EDITOR_THEMES[theme]}
      extensions={extensions}
      readOnly={readOnly}
      basicSetup={basicSetup}
    />
  );
}
