/**
 * The 'Error' / 'Success' dialog of spec 1 section 8, shared by every mutation: a failure shows
 * mutationErrorMessage(err) under the title 'Error', a success mutationSuccessMessage(body)
 * under 'Success'. One dialog for the whole app; its code loads when it is first shown.
 */
import {
  Suspense,
  createContext,
  lazy,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { ERROR_TITLE, SUCCESS_TITLE, mutationErrorMessage, mutationSuccessMessage } from '@portal/core';
import type { Tone } from './message-dialog-view';

const MessageDialogView = lazy(() => import('./message-dialog-view').then((m) => ({ default: m.MessageDialogView })));

interface MessageState {
  title: string;
  message: string;
  tone: Tone;
  onClose?: (() => void) | undefined;
  /** Where focus goes back to when it closes: what had focus last before it opened. */
  returnFocus: HTMLElement | null;
}

export interface MessageDialogApi {
  /** Shows a dialog with any title and text. */
  show: (title: string, message: string, tone?: Tone, onClose?: () => void) => void;
  /** 'Error' with the server message, else the error's own message, else 'Network Error'. */
  showError: (error: unknown, onClose?: () => void) => void;
  /** 'Success' with the server message, else 'Success'. */
  showSuccess: (body: unknown, onClose?: () => void) => void;
}

const MessageDialogContext = createContext<MessageDialogApi | null>(null);

export function MessageDialogProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<MessageState | null>(null);
  const [visible, setVisible] = useState(false);
  // The element that had focus last outside this dialog: a save's button is disabled while it
  // runs (so nothing has focus when the answer comes), and focus goes back to it afterwards.
  const lastFocus = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const onFocusIn = (event: FocusEvent) => {
      if (event.target instanceof HTMLElement && !event.target.closest('.message-dialog')) {
        lastFocus.current = event.target;
      }
    };
    document.addEventListener('focusin', onFocusIn);
    return () => document.removeEventListener('focusin', onFocusIn);
  }, []);

  const show = useCallback<MessageDialogApi['show']>((title, message, tone = 'info', onClose) => {
    setState({ title, message, tone, onClose, returnFocus: lastFocus.current });
    setVisible(true);
  }, []);

  const api = useMemo<MessageDialogApi>(
    () => ({
      show,
      showError: (error, onClose) => show(ERROR_TITLE, mutationErrorMessage(error), 'error', onClose),
      showSuccess: (body, onClose) => show(SUCCESS_TITLE, mutationSuccessMessage(body), 'success', onClose),
    }),
    [show],
  );

  const hide = () => {
    setVisible(false);
    state?.onClose?.();
  };

  return (
    <MessageDialogContext.Provider value={api}>
      {children}
      {state && (
        <Suspense fallback={null}>
          <MessageDialogView
            visible={visible}
            title={state.title}
            message={state.message}
            tone={state.tone}
            returnFocus={state.returnFocus}
            onHide={hide}
          />
        </Suspense>
      )}
    </MessageDialogContext.Provider>
  );
}

export function useMessageDialog(): MessageDialogApi {
  const value = useContext(MessageDialogContext);
  if (!value) throw new Error('useMessageDialog outside MessageDialogProvider');
  return value;
}
