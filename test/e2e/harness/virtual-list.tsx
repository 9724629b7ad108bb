// Harness page for test/e2e/virtual-list.test.ts: the renderer's VirtualList with 100,000 rows.
import { createRoot } from 'react-dom/client';
import { VirtualList } from '../../../renderer/components/VirtualList.tsx';

const items = Array.from({ length: 100_000 }, (_, i) => ({ id: i, name: `Conversation ${i}` }));

function Harness() {
  return (
    <div className="inbox-list" id="frame">
      <VirtualList
        label="Conversations"
        items={items}
        rowHeight={64}
        getKey={(c) => c.id}
        renderRow={(c) => <div className="conv">{c.name}</div>}
      />
    </div>
  );
}

const root = document.getElementById('root');
if (root) createRoot(root).render(<Harness />);
