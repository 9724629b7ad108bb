// Opt-outs and keyword auto-replies (issue 12): what the app does by itself with inbound messages.
import { OptOuts } from './OptOuts.tsx';

export function Automation() {
  return (
    <div className="view automation">
      <h1>Opt-outs &amp; auto-replies</h1>
      <OptOuts />
    </div>
  );
}
