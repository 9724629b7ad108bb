// A small windowing list: fixed row height, only the visible rows (plus overscan) are in the DOM,
// so 100,000 conversations scroll smoothly. Hand-written because it is ~60 lines and a library
// (react-window) would be a new dependency for exactly this.
import { useEffect, useRef, useState, type ReactNode } from 'react';

export interface VirtualListProps<T> {
  items: readonly T[];
  rowHeight: number;
  renderRow: (item: T, index: number) => ReactNode;
  getKey: (item: T, index: number) => string | number;
  /** Called when the user scrolls near the end (load the next page). */
  onNearEnd?: () => void;
  overscan?: number;
  label: string;
  className?: string;
}

export function VirtualList<T>({
  items,
  rowHeight,
  renderRow,
  getKey,
  onNearEnd,
  overscan = 8,
  label,
  className,
}: VirtualListProps<T>) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);

  useEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    // Never more than the window: an unbounded container would otherwise render every row.
    const measure = () => setHeight(Math.min(el.clientHeight, window.innerHeight));
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    measure();
    return () => ro.disconnect();
  }, []);

  const total = items.length * rowHeight;
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(items.length, Math.ceil((scrollTop + height) / rowHeight) + overscan);

  useEffect(() => {
    if (onNearEnd && last >= items.length - overscan && items.length > 0) onNearEnd();
  }, [last, items.length, overscan, onNearEnd]);

  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) {
    const item = items[i] as T;
    rows.push(
      <div
        key={getKey(item, i)}
        role="listitem"
        className="vrow"
        ref={(el) => {
          // CSSOM writes are allowed under the page's strict CSP (no inline style attributes).
          if (el) {
            el.style.transform = `translateY(${i * rowHeight}px)`;
            el.style.height = `${rowHeight}px`;
          }
        }}
      >
        {renderRow(item, i)}
      </div>,
    );
  }

  return (
    <div
      ref={ref}
      className={`vlist ${className ?? ''}`}
      role="list"
      aria-label={label}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
    >
      <div
        className="vlist-spacer"
        ref={(el) => {
          if (el) el.style.height = `${total}px`;
        }}
      >
        {rows}
      </div>
    </div>
  );
}
