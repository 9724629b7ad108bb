// The virtual phone (local sandbox only): what each recipient's handset received, read from the
// sandbox gateway's network (sandbox.outbound) and decoded with protocol/smart as a handset would.
// Refreshes on demand and, throttled, as sends progress.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { bytesToHex, formatRtttl, rtttlDurationMs } from '../../protocol/smart/index.ts';
import type { Bitmap, DecodedContent, RtttlSong } from '../../protocol/smart/index.ts';
import { api } from '../api.ts';
import { displayNumber, formatTime } from '../format.ts';
import { playSong } from './media/audio.ts';
import {
  appendPdus,
  buildHandsets,
  CONTENT_LABELS,
  pullPdus,
  readVCalendar,
  readVCard,
  utcToLocal,
} from './phone-model.ts';
import type { Handset, HandsetMessage, PduWindow } from './phone-model.ts';
import { ErrorText } from '../components/ErrorText.tsx';
import { NumberWithName } from '../components/RecipientTable.tsx';
import { useContactNames } from '../hooks/useContactNames.ts';
import { useLiveRead } from '../hooks/useLiveRead.ts';

/** PDUs kept in memory: the most recent ones (a large sandbox campaign must not grow the view forever). */
const MAX_PDUS = 5000;
const PAGE = 1000;

export function Phone() {
  const [loading, setLoading] = useState(false);
  const [selected, setSelected] = useState<string | null>(null);
  const [find, setFind] = useState('');
  // What the sandbox's network has sent so far, and the cursor past it: each read asks for what came
  // after (each page is kept as it arrives, so a failing later page loses nothing).
  const held = useRef<PduWindow>({ pdus: [], trimmed: false });
  const cursor = useRef(0);
  // One pull at a time (the Refresh button may ask while an event's read is under way).
  const pulling = useRef<Promise<unknown>>(Promise.resolve());
  const read = useCallback((): Promise<PduWindow> => {
    const pull = pulling.current
      .catch(() => undefined)
      .then(async () => {
        setLoading(true);
        try {
          await pullPdus(
            (args) => api().sandbox.outbound(args),
            cursor.current,
            PAGE,
            (items, next) => {
              cursor.current = next;
              held.current = appendPdus(held.current, items, MAX_PDUS);
            },
          );
          return held.current;
        } finally {
          setLoading(false);
        }
      });
    pulling.current = pull;
    return pull;
  }, []);
  // Read again (throttled: the renderer's one way, useLiveRead) as sends progress.
  const { data, error, load: refresh } = useLiveRead(read, { 'outbox:progress': () => true });
  const { pdus, trimmed } = data ?? held.current;

  const handsets = useMemo(() => buildHandsets(pdus), [pdus]);
  // Issue 12: a handset that is a contact shows its name beside the number.
  const names = useContactNames();
  const digits = find.replace(/\D/g, '');
  const shown = digits === '' ? handsets : handsets.filter((h) => h.recipient.includes(digits));
  const current = shown.find((h) => h.recipient === selected) ?? shown[0] ?? null;

  return (
    <section className="view phone" aria-labelledby="phone-title">
      <div className="row spread">
        <h1 id="phone-title">Virtual phone</h1>
        <button type="button" onClick={refresh} disabled={loading}>
          {loading ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      <p className="muted small">
        What each recipient&apos;s handset received from the local sandbox&apos;s network, decoded from its
        SMS PDUs.
        {trimmed ? ` Showing the latest ${MAX_PDUS} PDUs.` : ''}
      </p>
      <ErrorText error={error} />
      {handsets.length === 0 && !error ? (
        <p className="muted">
          {loading
            ? 'Loading…'
            : 'Nothing received yet. Send something from Compose: each recipient appears here as a handset.'}
        </p>
      ) : null}
      {handsets.length > 1 ? (
        <label className="find-handset">
          Find a handset
          <input
            type="search"
            inputMode="tel"
            value={find}
            placeholder="Part of the number"
            onChange={(e) => setFind(e.target.value)}
          />
        </label>
      ) : null}
      {handsets.length > 0 && shown.length === 0 ? (
        <p className="muted">No handset number contains “{find}”.</p>
      ) : null}
      {current ? (
        <div className="phone-split">
          <ul className="plain handsets" aria-label="Handsets">
            {shown.map((h) => (
              <li key={h.recipient}>
                <button
                  type="button"
                  className={h === current ? 'handset-item selected' : 'handset-item'}
                  aria-pressed={h === current}
                  onClick={() => setSelected(h.recipient)}
                >
                  <span>
                    <NumberWithName number={h.recipient} names={names} />
                  </span>
                  <span className="muted small">
                    {h.messages.length} message{h.messages.length === 1 ? '' : 's'}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          <HandsetScreen handset={current} names={names} />
        </div>
      ) : null}
    </section>
  );
}

function HandsetScreen({ handset, names }: { handset: Handset; names: ReadonlyMap<string, string> }) {
  const label = `Handset ${displayNumber(handset.recipient)}`;
  return (
    <section className="handset" aria-label={label}>
      <div className="handset-top">
        <span aria-hidden="true" className="handset-speaker" />
        <strong>
          <NumberWithName number={handset.recipient} names={names} />
        </strong>
      </div>
      <ol className="plain handset-screen">
        {handset.messages.map((m) => (
          <li key={`${m.messageIdentifier}-${m.lastId}`}>
            <ReceivedItem message={m} names={names} />
          </li>
        ))}
      </ol>
    </section>
  );
}

function ReceivedItem({ message, names }: { message: HandsetMessage; names: ReadonlyMap<string, string> }) {
  const kind = message.content?.kind;
  const label = kind ? CONTENT_LABELS[kind] : 'Unreadable message';
  return (
    <article className={`received ${kind ?? 'binary'}`} aria-label={label}>
      <header className="received-head">
        <span className="received-kind">{label}</span>
        <span className="muted small">
          {formatTime(Date.parse(message.createdAt))} · {message.partsReceived}/{message.partsExpected} SMS
        </span>
      </header>
      {!message.complete ? (
        <p className="warn-text small">
          Waiting for parts: {message.partsReceived} of {message.partsExpected} received.
        </p>
      ) : null}
      {message.error ? <p className="error small">Not decodable: {message.error}</p> : null}
      {message.content ? <ContentView content={message.content} names={names} /> : null}
      <p className="muted small received-id">Message {message.messageIdentifier}</p>
    </article>
  );
}

/** An MMS From address ("+447700900123/TYPE=PLMN") with its contact's name, when it is a contact. */
function fromWithName(from: string, names: ReadonlyMap<string, string>): string {
  const name = names.get(from.replace(/\/TYPE=.*$/i, '').replace(/^\+/, ''));
  return name ? `${name} (${from})` : from;
}

function ContentView({ content, names }: { content: DecodedContent; names: ReadonlyMap<string, string> }) {
  switch (content.kind) {
    case 'text':
      return <p className="received-text">{content.text}</p>;
    case 'flash':
      return (
        <p className="received-text flash">
          <span className="pill">Flash</span> {content.text}
        </p>
      );
    case 'ringtone':
      return <RingtoneView song={content.song} />;
    case 'operatorLogo':
      return (
        <div>
          <BitmapView bitmap={content.bitmap} label="Operator logo" />
          <p className="small">
            Network MCC {content.mcc}, MNC {String(content.mnc).padStart(2, '0')}
          </p>
        </div>
      );
    case 'groupGraphic':
      return <BitmapView bitmap={content.bitmap} label="Group graphic" />;
    case 'pictureMessage':
      return (
        <div>
          <BitmapView bitmap={content.bitmap} label="Picture" />
          {content.text ? <p className="received-text">{content.text}</p> : null}
        </div>
      );
    case 'vcard':
      return <VcardView text={content.vcard} />;
    case 'vcalendar':
      return <VcalendarView text={content.vcalendar} />;
    case 'wapPushSi': {
      const si = content.si;
      return (
        <div>
          {si.text ? <p className="received-text">{si.text}</p> : null}
          <dl className="facts small">
            <dt>Link</dt>
            <dd>
              <code className="si-link">{si.href || '(none)'}</code>
            </dd>
            {si.siId !== undefined ? (
              <>
                <dt>si-id</dt>
                <dd>{si.siId}</dd>
              </>
            ) : null}
            {si.created !== undefined ? (
              <>
                <dt>Created</dt>
                <dd>{utcToLocal(si.created)}</dd>
              </>
            ) : null}
            {si.expires !== undefined ? (
              <>
                <dt>Expires</dt>
                <dd>{utcToLocal(si.expires)}</dd>
              </>
            ) : null}
            <dt>Action</dt>
            <dd>{si.action ?? 'signal-medium (default)'}</dd>
            {(si.info ?? []).map((it, i) => (
              <FactPair key={i} term={`Info ${it.class}`} value={it.text ?? ''} />
            ))}
          </dl>
        </div>
      );
    }
    case 'mmsNotification': {
      const n = content.notification;
      return (
        <dl className="facts small">
          {n.subject !== undefined ? <FactPair term="Subject" value={n.subject} /> : null}
          <FactPair
            term="From"
            value={n.from !== undefined ? fromWithName(n.from, names) : '(inserted by the network)'}
          />
          <FactPair term="Size" value={`${n.messageSize} bytes`} />
          <FactPair term="Class" value={n.messageClass} />
          <FactPair
            term="Expires"
            value={
              n.expiresAt !== undefined
                ? new Date(n.expiresAt * 1000).toLocaleString()
                : `${relativeTime(n.expirySeconds ?? 0)} after arrival`
            }
          />
          <dt>Fetch from</dt>
          <dd>
            <code className="si-link">{n.contentLocation}</code>
          </dd>
          <FactPair term="Transaction" value={n.transactionId} />
          {n.version !== undefined ? <FactPair term="MMS version" value={n.version} /> : null}
        </dl>
      );
    }
    case 'binary':
      return (
        <dl className="facts small">
          <FactPair
            term="Port"
            value={
              content.destPort !== undefined ? `${content.destPort} (from ${content.srcPort ?? 0})` : 'none'
            }
          />
          <FactPair term="DCS" value={`0x${content.dcs.toString(16).padStart(2, '0').toUpperCase()}`} />
          <FactPair term="PID" value={`0x${content.pid.toString(16).padStart(2, '0').toUpperCase()}`} />
          <dt>Data</dt>
          <dd>
            <code className="hex">
              {bytesToHex(content.data.subarray(0, 96))}
              {content.data.length > 96 ? '…' : ''}
            </code>{' '}
            ({content.data.length} octets)
          </dd>
        </dl>
      );
  }
}

/** 604800 → "7 days", 7200 → "2 hours", 90 → "90 seconds". */
function relativeTime(seconds: number): string {
  const unit = (n: number, u: string) => `${n} ${u}${n === 1 ? '' : 's'}`;
  if (seconds > 0 && seconds % 86400 === 0) return unit(seconds / 86400, 'day');
  if (seconds > 0 && seconds % 3600 === 0) return unit(seconds / 3600, 'hour');
  if (seconds > 0 && seconds % 60 === 0) return unit(seconds / 60, 'minute');
  return unit(seconds, 'second');
}

function FactPair({ term, value }: { term: string; value: string }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </>
  );
}

function RingtoneView({ song }: { song: RtttlSong }) {
  const [player, setPlayer] = useState<{ stop(): void } | null>(null);
  useEffect(() => () => player?.stop(), [player]);
  const seconds = (rtttlDurationMs(song) / 1000).toFixed(1);
  const toggle = () => {
    if (player) {
      player.stop();
      setPlayer(null);
      return;
    }
    try {
      const p = playSong(song);
      setPlayer(p);
      void p.done.then(() => setPlayer((cur) => (cur === p ? null : cur)));
    } catch {
      setPlayer(null);
    }
  };
  return (
    <div>
      <p className="received-text">
        ♪ {song.name || '(untitled)'} — {song.notes.length} notes, {song.bpm} bpm, {seconds} s
      </p>
      <code className="hex">{formatRtttl(song)}</code>
      <div className="row">
        <button
          type="button"
          onClick={toggle}
          aria-label={`${player ? 'Stop' : 'Play'} ringtone ${song.name}`}
        >
          {player ? '■ Stop' : '▶ Play'}
        </button>
      </div>
    </div>
  );
}

/** An OTA bitmap drawn pixel by pixel, black on the handset's display green. */
function BitmapView({ bitmap, label }: { bitmap: Bitmap; label: string }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const scale = 4;
  useEffect(() => {
    const ctx = ref.current?.getContext('2d');
    if (!ctx) return;
    ctx.fillStyle = '#c5d4a0';
    ctx.fillRect(0, 0, bitmap.width * scale, bitmap.height * scale);
    ctx.fillStyle = '#1d2414';
    for (let y = 0; y < bitmap.height; y++)
      for (let x = 0; x < bitmap.width; x++)
        if (bitmap.pixels[y * bitmap.width + x]) ctx.fillRect(x * scale, y * scale, scale, scale);
  }, [bitmap]);
  return (
    <canvas
      ref={ref}
      className="bitmap"
      role="img"
      aria-label={`${label}, ${bitmap.width}×${bitmap.height} pixels`}
      width={bitmap.width * scale}
      height={bitmap.height * scale}
    />
  );
}

function VcardView({ text }: { text: string }) {
  const read = readVCard(text);
  if ('error' in read) return <p className="error small">vCard not readable: {read.error}</p>;
  const c = read.card;
  const name = c.formattedName ?? [c.name.given, c.name.family].filter(Boolean).join(' ');
  return (
    <div>
      <p className="received-text">
        <strong>{name}</strong>
      </p>
      <dl className="facts small">
        {c.phones.map((p, i) => (
          <FactPair
            key={`t${i}`}
            term={`Phone${p.types.length ? ` (${p.types.join(', ').toLowerCase()})` : ''}`}
            value={p.number}
          />
        ))}
        {c.emails.map((e, i) => (
          <FactPair key={`e${i}`} term="E-mail" value={e.address} />
        ))}
        {c.organization ? <FactPair term="Organisation" value={c.organization} /> : null}
        {c.title ? <FactPair term="Title" value={c.title} /> : null}
        {c.url ? <FactPair term="Web" value={c.url} /> : null}
        {c.birthday ? <FactPair term="Birthday" value={c.birthday} /> : null}
        {c.note ? <FactPair term="Note" value={c.note} /> : null}
      </dl>
      <RawText text={text} />
    </div>
  );
}

function VcalendarView({ text }: { text: string }) {
  const read = readVCalendar(text);
  if ('error' in read) return <p className="error small">vCalendar not readable: {read.error}</p>;
  return (
    <div>
      {read.calendar.events.map((ev, i) => (
        <div key={i}>
          <p className="received-text">
            <strong>{ev.summary || '(no title)'}</strong>
          </p>
          <dl className="facts small">
            <FactPair term="Starts" value={eventTime(ev.start)} />
            {ev.end ? <FactPair term="Ends" value={eventTime(ev.end)} /> : null}
            {ev.location ? <FactPair term="Location" value={ev.location} /> : null}
            {ev.alarm ? (
              <FactPair
                term="Reminder"
                value={`${ev.alarm.endsWith('Z') ? utcToLocal(ev.alarm) : ev.alarm.replace('T', ' ')}${reminderOffset(ev.start, ev.alarm)}`}
              />
            ) : null}
            {ev.description ? <FactPair term="Description" value={ev.description} /> : null}
          </dl>
        </div>
      ))}
      <RawText text={text} />
    </div>
  );
}

/** A vCalendar time: UTC (…Z) shown in local time with the UTC form; a floating local time as it is. */
function eventTime(iso: string): string {
  return iso.endsWith('Z')
    ? `${utcToLocal(iso)} (UTC ${iso.slice(0, 16).replace('T', ' ')})`
    : iso.replace('T', ' ');
}

function reminderOffset(start: string, alarm: string): string {
  const s = Date.parse(start);
  const a = Date.parse(alarm);
  if (Number.isNaN(s) || Number.isNaN(a) || a > s) return '';
  return ` (${Math.round((s - a) / 60_000)} minutes before)`;
}

function RawText({ text }: { text: string }) {
  return (
    <details className="small">
      <summary>Received text</summary>
      <pre className="raw">{text}</pre>
    </details>
  );
}
