// The one modal dialog of the renderer, on the native <dialog> element, and its two everyday forms
// (Confirm, Prompt) usable from event handlers through useDialog(). Electron does not implement the
// browser's prompt box at all, and its confirm box blocks the renderer's thread unstyled, so the
// renderer uses neither (eslint.config.js forbids them).
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { ErrorText } from './ErrorText.tsx';

const FOCUSABLE =
  'a[href], button:not(:disabled), input:not(:disabled):not([type="hidden"]), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])';

function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
}

/**
 * A modal dialog, open while mounted: showModal() makes the rest of the page inert, Tab cycles
 * within it, Escape cancels, and focus goes back to the element that opened it. Focus starts on
 * the first field, else an element marked data-autofocus (Cancel, where the action destroys
 * something), else the primary button, else the first button.
 */
export function Dialog({
  title,
  label,
  onCancel,
  children,
  describedBy,
  className,
  onSubmit,
}: {
  title: ReactNode;
  /** The accessible name when it should differ from the title (aria-label instead of aria-labelledby). */
  label?: string;
  /** Escape, or the caller's Cancel button. */
  onCancel: () => void;
  children: ReactNode;
  /** The id of the sentence that explains the question (aria-describedby). */
  describedBy?: string;
  className?: string;
  /** When given, the body is a form: Enter in a field submits it. */
  onSubmit?: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const cancelRef = useRef(onCancel);
  useEffect(() => {
    cancelRef.current = onCancel;
  });

  // Before paint, so the first frame is already modal; the opener is read before focus moves.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return undefined;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    const first =
      dialog.querySelector<HTMLElement>(
        'input:not(:disabled), select:not(:disabled), textarea:not(:disabled)',
      ) ??
      dialog.querySelector<HTMLElement>('[data-autofocus]') ??
      dialog.querySelector<HTMLElement>('button.primary:not(:disabled), button.danger:not(:disabled)') ??
      focusables(dialog)[0];
    first?.focus();
    // Escape fires "cancel": the owner decides (it unmounts us), the browser does not close on its own.
    const onCancelEvent = (e: Event) => {
      e.preventDefault();
      cancelRef.current();
    };
    dialog.addEventListener('cancel', onCancelEvent);
    return () => {
      dialog.removeEventListener('cancel', onCancelEvent);
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  // A modal dialog keeps focus out of the page, but Tab would still leave it for the browser's own
  // controls: wrap around at both ends instead.
  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (e.key !== 'Tab' || !ref.current) return;
    const list = focusables(ref.current);
    const first = list[0];
    const last = list[list.length - 1];
    if (!first || !last) {
      e.preventDefault();
      return;
    }
    const active = document.activeElement;
    if (e.shiftKey && (active === first || !ref.current.contains(active))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (active === last || !ref.current.contains(active))) {
      e.preventDefault();
      first.focus();
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit?.();
  };

  return (
    <dialog
      ref={ref}
      className={className ? `dialog ${className}` : 'dialog'}
      aria-labelledby={label === undefined ? titleId : undefined}
      aria-label={label}
      aria-describedby={describedBy}
      onKeyDown={onKeyDown}
    >
      {onSubmit ? (
        <form onSubmit={submit} className="dialog-body">
          <h2 id={titleId}>{title}</h2>
          {children}
        </form>
      ) : (
        <div className="dialog-body">
          <h2 id={titleId}>{title}</h2>
          {children}
        </div>
      )}
    </dialog>
  );
}

export interface ConfirmOptions {
  title: string;
  message?: string;
  /** The button that says yes (default "OK"). */
  confirmLabel?: string;
  cancelLabel?: string;
  /** A destructive action: the confirm button is red. */
  danger?: boolean;
}

export interface AskTextOptions {
  title: string;
  label: string;
  initial?: string;
  confirmLabel?: string;
  /** A problem with the value (shown inline, blocks OK), or null when it may be used. */
  validate?: (value: string) => string | null;
  /** Refuse an empty (all-blank) answer with this sentence. */
  required?: string;
}

export function ConfirmDialog({
  title,
  message,
  confirmLabel = 'OK',
  cancelLabel = 'Cancel',
  danger = false,
  onAnswer,
}: ConfirmOptions & { onAnswer: (yes: boolean) => void }) {
  const messageId = useId();
  return (
    <Dialog title={title} onCancel={() => onAnswer(false)} describedBy={message ? messageId : undefined}>
      {message ? <p id={messageId}>{message}</p> : null}
      <div className="row dialog-buttons">
        <button type="button" className={danger ? 'danger' : 'primary'} onClick={() => onAnswer(true)}>
          {confirmLabel}
        </button>
        {/* Enter on a destructive question must not destroy: Cancel has the focus then. */}
        <button type="button" onClick={() => onAnswer(false)} data-autofocus={danger || undefined}>
          {cancelLabel}
        </button>
      </div>
    </Dialog>
  );
}

export function PromptDialog({
  title,
  label,
  initial = '',
  confirmLabel = 'OK',
  validate,
  required,
  onAnswer,
}: AskTextOptions & { onAnswer: (value: string | null) => void }) {
  const [value, setValue] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const fieldId = useId();
  const problemOf = (v: string): string | null =>
    required !== undefined && v.trim() === '' ? required : (validate?.(v) ?? null);
  const submit = () => {
    const found = problemOf(value);
    setProblem(found);
    if (found === null) onAnswer(value);
  };
  return (
    <Dialog title={title} onCancel={() => onAnswer(null)} onSubmit={submit}>
      <label htmlFor={fieldId}>{label}</label>
      <input
        id={fieldId}
        value={value}
        aria-invalid={problem !== null}
        onChange={(e) => {
          setValue(e.target.value);
          // Once shown, the message follows the value, so it goes away as soon as it is fixed.
          if (problem !== null) setProblem(problemOf(e.target.value));
        }}
      />
      <ErrorText error={problem} />
      <div className="row dialog-buttons">
        <button type="submit" className="primary">
          {confirmLabel}
        </button>
        <button type="button" onClick={() => onAnswer(null)}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}

export interface DialogApi {
  /** Ask yes or no: true only when the confirm button was pressed. */
  confirm(options: ConfirmOptions): Promise<boolean>;
  /** Ask for a line of text: the value on OK, null on Cancel or Escape. */
  askText(options: AskTextOptions): Promise<string | null>;
}

type Open = { id: number } & (
  | { form: 'confirm'; options: ConfirmOptions; resolve: (yes: boolean) => void }
  | { form: 'text'; options: AskTextOptions; resolve: (value: string | null) => void }
);
type Question = Open extends infer O ? (O extends Open ? Omit<O, 'id'> : never) : never;
let questionSeq = 0;

const DialogContext = createContext<DialogApi | null>(null);

/** Hosts the confirm and text dialogs of everything below it (one at a time, as modal ones are). */
export function DialogProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState<Open | null>(null);
  const openRef = useRef<Open | null>(null);
  const show = useCallback((question: Question) => {
    const next = { ...question, id: ++questionSeq } as Open;
    // A second question while one is open answers the first as cancelled.
    const previous = openRef.current;
    if (previous?.form === 'confirm') previous.resolve(false);
    else if (previous?.form === 'text') previous.resolve(null);
    openRef.current = next;
    setOpen(next);
  }, []);
  const finish = useCallback(() => {
    openRef.current = null;
    setOpen(null);
  }, []);
  const value = useMemo<DialogApi>(
    () => ({
      confirm: (options) => new Promise<boolean>((resolve) => show({ form: 'confirm', options, resolve })),
      askText: (options) => new Promise<string | null>((resolve) => show({ form: 'text', options, resolve })),
    }),
    [show],
  );
  return (
    <DialogContext.Provider value={value}>
      {children}
      {open?.form === 'confirm' ? (
        <ConfirmDialog
          key={open.id}
          {...open.options}
          onAnswer={(yes) => {
            finish();
            open.resolve(yes);
          }}
        />
      ) : null}
      {open?.form === 'text' ? (
        <PromptDialog
          key={open.id}
          {...open.options}
          onAnswer={(v) => {
            finish();
            open.resolve(v);
          }}
        />
      ) : null}
    </DialogContext.Provider>
  );
}

export function useDialog(): DialogApi {
  const api = useContext(DialogContext);
  if (!api) throw new Error('useDialog() needs a <DialogProvider> above it');
  return api;
}
