import { useCallback, useState } from 'react';
import { STORAGE_KEYS, parseScriptTheme, type ScriptTheme } from '@portal/core';

function readTheme(): ScriptTheme {
  try {
    return parseScriptTheme(localStorage.getItem(STORAGE_KEYS.scriptTheme));
  } catch {
    return 'light';
  }
}

/**
 * The script editor's theme, kept in local storage (spec 2 section 9, SUB-24); the sign-in of
 * another user clears it with the favourites (lib/auth/user-storage.ts).
 */
export function useScriptTheme(): [ScriptTheme, (theme: ScriptTheme) => void] {
  const [theme, setState] = useState<ScriptTheme>(readTheme);
  const setTheme = useCallback((next: ScriptTheme) => {
    setState(next);
    try {
      localStorage.setItem(STORAGE_KEYS.scriptTheme, next);
    } catch {
      // storage unavailable (private mode): the theme lasts for this visit
    }
  }, []);
  return [theme, setTheme];
}
