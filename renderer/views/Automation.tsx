// Opt-outs and keyword auto-replies (issue 12): what the app does by itself with inbound messages.
import { AutoReplies } from './AutoReplies.tsx';
import { OptOuts } from './OptOuts.tsx';
import { AccountScope } from '../components/AccountScope.tsx';

export function Automation() {
  return (
    <div className="view automation">
      <h1>Opt-outs &amp; auto-replies</h1>
      <AccountScope scope="account" what="Opt-outs and auto-replies" sharedInOffice />
      <AutoReplies />
      <OptOuts />
    </div>
  );
}
