// Opt-outs and keyword auto-replies (issue 12): what the app does by itself with inbound messages.
import { AutoReplies } from './AutoReplies.tsx';
import { OptOuts } from './OptOuts.tsx';

export function Automation() {
  return (
    <div className="view automation">
      <h1>Opt-outs &amp; auto-replies</h1>
      <AutoReplies />
      <OptOuts />
    </div>
  );
}
