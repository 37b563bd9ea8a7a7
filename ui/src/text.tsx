import { asText } from './api.ts';

/** A value shown as preformatted text (React escapes it: markup in the data stays visible text). */
export function Pre({ value, className, testId }: { value: unknown; className?: string; testId?: string }) {
  return (
    <pre className={`pre ${className ?? ''}`} data-testid={testId}>
      {asText(value)}
    </pre>
  );
}

export function Offline({ offline }: { offline: boolean }) {
  return offline ? (
    <span
      className="offline"
      title="offline policy, offline judge and rule-based optimizer: no LLM ran; these are not LLM figures"
    >
      OFFLINE
    </span>
  ) : null;
}

export function Status({ status }: { status: string }) {
  return <span className={`status status-${status}`}>{status}</span>;
}

export function ErrorBox({ error }: { error: string }) {
  return (
    <div className="error" role="alert">
      {error}
    </div>
  );
}
