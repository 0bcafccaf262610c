// poolroids in a browser: draws the grid of cells the server sends over a
// WebSocket on a canvas, and sends back the keys as they go down and up.
// The protocol is described in the Go package ui/web.
'use strict';

(() => {
  // Messages, by their first byte.
  const FRAME = 1, TITLE = 2, BYE = 3, PONG = 4; // from the server
  const HELLO = 1, KEY = 2, TEXT = 3, RESIZE = 4, PING = 5, NAME = 6; // to it
  const VERSION = 1;
  const MIN_COLS = 80, MIN_ROWS = 24; // the game's least
  const MAX_COLS = 200, MAX_ROWS = 60; // beyond, the font grows instead
  const FONT = '"DejaVu Sans Mono", "Noto Sans Mono", Menlo, Consolas, "Liberation Mono", monospace';
  const DEFAULT_FG = 0xd4d4d4, DEFAULT_BG = 0x0c0e12;
  const BOLD = 1, DIM = 2, ITALIC = 4, UNDERLINE = 8, REVERSE = 16;

  // xterm's 256 colours, the first 16 softened for a dark page.
  const palette = [
    0x000000, 0xcd3131, 0x0dbc79, 0xe5e510, 0x2472c8, 0xbc3fbc, 0x11a8cd, 0xe5e5e5,
    0x666666, 0xf14c4c, 0x23d18b, 0xf5f543, 0x3b8eea, 0xd670d6, 0x29b8db, 0xffffff,
  ];
  const level = [0, 95, 135, 175, 215, 255];
  for (let i = 0; i < 216; i++) {
    palette.push(level[(i / 36) | 0] << 16 | level[((i / 6) | 0) % 6] << 8 | level[i % 6]);
  }
  for (let i = 0; i < 24; i++) {
    const v = 8 + 10 * i;
    palette.push(v << 16 | v << 8 | v);
  }

  const $ = (id) => document.getElementById(id);
  const canvas = $('grid'), screen = $('screen'), status = $('status');
  const notice = $('notice'), noticeText = $('notice-text'), nameInput = $('name');
  const ctx = canvas.getContext('2d', { alpha: false });

  // The grid as the server last sent it: a cell's text ('' a blank),
  // colours (the server's encoding: 0 default, 1<<24 | index, 2<<24 | rgb),
  // attributes, and whether it is two columns wide.
  let W = 0, H = 0;
  let text = [], fg = new Uint32Array(0), bg = fg, attr = new Uint8Array(0), wide = attr;
  let dirty = new Uint8Array(0), anyDirty = false, drawQueued = false;

  // The cell's size in device pixels, the font's in CSS pixels.
  let dpr = 1, fontPx = 16, cw = 10, ch = 19, baseline = 15;
  let cols = MIN_COLS, rows = MIN_ROWS; // what the page has room for

  let ws = null, bye = '', retry = 0, retryTimer = 0, pingTimer = 0;
  let frames = 0, draws = 0, latency = -1;

  // ---- the grid ----

  const chars = new Map();
  const charOf = (cp) => {
    if (cp === 0x20) return '';
    let s = chars.get(cp);
    if (s === undefined) {
      s = String.fromCodePoint(cp);
      chars.set(cp, s);
    }
    return s;
  };

  function resizeGrid(w, h) {
    W = w;
    H = h;
    const n = w * h;
    text = new Array(n).fill('');
    fg = new Uint32Array(n);
    bg = new Uint32Array(n);
    attr = new Uint8Array(n);
    wide = new Uint8Array(n);
    dirty = new Uint8Array(n).fill(1);
    anyDirty = true;
    layout();
  }

  const utf8 = new TextDecoder('utf-8', { fatal: true });

  // applyFrame applies a frame message to the grid, as Grid.Apply does in
  // Go.
  function applyFrame(b) {
    let i = 1, x = 0, y = 0, f = 0, g = 0, a = 0, page = 0;
    const uvarint = () => {
      let v = 0, shift = 0, c;
      do {
        if (i >= b.length) throw new Error('frame cut short');
        c = b[i++];
        v += (c & 0x7f) * 2 ** shift;
        shift += 7;
      } while (c & 0x80);
      return v;
    };
    const color = () => {
      const kind = b[i++];
      if (kind === 0) return 0;
      if (kind === 1) return 1 << 24 | b[i++];
      if (kind === 2) {
        i += 3;
        return (2 << 24 | b[i - 3] << 16 | b[i - 2] << 8 | b[i - 1]) >>> 0;
      }
      throw new Error('bad colour');
    };
    const put = (t, wd) => {
      if (x >= W || y >= H) throw new Error(`cell at ${x},${y} off the grid`);
      const k = y * W + x;
      if (wide[k] && x + 1 < W) dirty[k + 1] = 1; // the half it covered shows again
      text[k] = t;
      fg[k] = f;
      bg[k] = g;
      attr[k] = a;
      wide[k] = wd;
      dirty[k] = 1;
      x++;
      if (wd) {
        if (x < W) {
          text[k + 1] = '';
          wide[k + 1] = 0;
          dirty[k + 1] = 1;
        }
        x++;
      }
    };
    while (i < b.length) {
      const op = b[i++];
      if (op < 0x40) {
        for (let n = (op & 0x3f) + 1; n > 0; n--) put(charOf(page * 256 + b[i++]), 0);
      } else if (op < 0x60) {
        x += (op & 0x1f) + 1;
      } else if (op < 0x80) {
        for (let n = (op & 0x1f) + 1; n > 0; n--) put('', 0);
      } else if (op < 0xc0) {
        const t = charOf(page * 256 + b[i++]);
        for (let n = (op & 0x3f) + 1; n > 0; n--) put(t, 0);
      } else if (op === 0xc0) {
        y = uvarint();
        x = uvarint();
      } else if (op === 0xc1) {
        x = 0;
        y++;
      } else if (op === 0xc2) {
        page = uvarint();
      } else if (op === 0xc3 || op === 0xc4) {
        const n = b[i++];
        if (i + n > b.length) throw new Error('frame cut short');
        put(utf8.decode(b.subarray(i, i + n)), op === 0xc4 ? 1 : 0);
        i += n;
      } else if (op === 0xc5) {
        const w = uvarint(), h = uvarint();
        resizeGrid(w, h);
      } else if ((op & 0xf8) === 0xc8) {
        if (op & 1) f = color();
        if (op & 2) g = color();
        if (op & 4) a = b[i++];
      } else {
        throw new Error(`operation ${op}`);
      }
    }
    anyDirty = true;
  }

  // ---- drawing ----

  const css = new Map();
  const cssOf = (rgb) => {
    let s = css.get(rgb);
    if (s === undefined) {
      s = '#' + rgb.toString(16).padStart(6, '0');
      css.set(rgb, s);
    }
    return s;
  };
  const rgbOf = (c, dflt) => {
    switch (c >>> 24) {
      case 1: return palette[c & 0xff];
      case 2: return c & 0xffffff;
      default: return dflt;
    }
  };
  const mix = (a, b) => ((a >> 1) & 0x7f7f7f) + ((b >> 1) & 0x7f7f7f);

  function scheduleDraw() {
    if (!drawQueued && anyDirty) {
      drawQueued = true;
      requestAnimationFrame(draw);
    }
  }

  function draw() {
    drawQueued = false;
    if (!anyDirty) return;
    anyDirty = false;
    for (let k = 0; k < dirty.length; k++) {
      if (!dirty[k]) continue;
      dirty[k] = 0;
      const x = k % W;
      drawCell(x > 0 && wide[k - 1] ? k - 1 : k);
    }
    draws++;
  }

  let font = '';
  function drawCell(k) {
    const x = k % W, y = (k / W) | 0, a = attr[k];
    const x0 = x * cw, y0 = y * ch, span = wide[k] && x + 1 < W ? 2 : 1;
    let f = rgbOf(fg[k], DEFAULT_FG), g = rgbOf(bg[k], DEFAULT_BG);
    if (a & REVERSE) [f, g] = [g, f];
    if (a & DIM) f = mix(f, g);
    ctx.fillStyle = cssOf(g);
    ctx.fillRect(x0, y0, cw * span, ch);
    const t = text[k];
    if (t === '') {
      if (a & UNDERLINE) underline(x0, y0, span, f);
      return;
    }
    ctx.fillStyle = cssOf(f);
    const cp = t.length <= 2 ? t.codePointAt(0) : 0;
    if (!(cp >= 0x2800 && cp <= 0x28ff && braille(cp, x0, y0)) &&
        !(cp >= 0x2500 && cp <= 0x257f && box(cp, x0, y0)) &&
        !(cp >= 0x2580 && cp <= 0x259f && block(cp, x0, y0, f, g))) {
      const want = `${a & ITALIC ? 'italic ' : ''}${a & BOLD ? 'bold ' : ''}${fontPx * dpr}px ${FONT}`;
      if (want !== font) ctx.font = font = want;
      ctx.fillText(t, x0, y0 + baseline);
    }
    if (a & UNDERLINE) underline(x0, y0, span, f);
  }

  function underline(x0, y0, span, f) {
    const t = Math.max(1, Math.round(ch / 16));
    ctx.fillStyle = cssOf(f);
    ctx.fillRect(x0, y0 + ch - 2 * t, cw * span, t);
  }

  // braille draws the dots of a braille pattern, the 2×4 dots of the cell,
  // so that they line up from cell to cell whatever the font.
  const dotBits = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]];
  function braille(cp, x0, y0) {
    const bits = cp - 0x2800;
    const d = Math.max(1, Math.round(Math.min(cw / 2, ch / 4) * 0.55));
    for (let r = 0; r < 4; r++) {
      for (let c = 0; c < 2; c++) {
        if (!(bits & dotBits[r][c])) continue;
        const cx = x0 + Math.round(cw * (2 * c + 1) / 4), cy = y0 + Math.round(ch * (2 * r + 1) / 8);
        if (d < 4) {
          ctx.fillRect(cx - (d >> 1), cy - (d >> 1), d, d);
        } else {
          ctx.beginPath();
          ctx.arc(cx, cy, d / 2, 0, 2 * Math.PI);
          ctx.fill();
        }
      }
    }
    return true;
  }

  // The box-drawing characters drawn as lines that meet from cell to
  // cell: each arm (up, right, down, left) light (1) or heavy (2).
  const arms = {
    0x2500: '0101', 0x2501: '0202', 0x2502: '1010', 0x2503: '2020',
    0x250c: '0110', 0x250f: '0220', 0x2510: '0011', 0x2513: '0022',
    0x2514: '1100', 0x2517: '2200', 0x2518: '1001', 0x251b: '2002',
    0x251c: '1110', 0x2523: '2220', 0x2524: '1011', 0x252b: '2022',
    0x252c: '0111', 0x2533: '0222', 0x2534: '1101', 0x253b: '2202',
    0x253c: '1111', 0x254b: '2222', 0x2574: '0001', 0x2575: '1000',
    0x2576: '0100', 0x2577: '0010', 0x256d: '0110', 0x256e: '0011',
    0x256f: '1001', 0x2570: '1100',
  };
  function box(cp, x0, y0) {
    const a = arms[cp];
    if (a === undefined) return false; // double lines and the rest: the font's
    const light = Math.max(1, Math.round(cw / 8));
    const mx = x0 + (cw >> 1), my = y0 + (ch >> 1);
    for (let i = 0; i < 4; i++) {
      const t = light * +a[i];
      if (!t) continue;
      const h = t >> 1;
      switch (i) {
        case 0: ctx.fillRect(mx - h, y0, t, my - y0 + t - h); break;
        case 1: ctx.fillRect(mx - h, my - h, x0 + cw - mx + h, t); break;
        case 2: ctx.fillRect(mx - h, my - h, t, y0 + ch - my + h); break;
        case 3: ctx.fillRect(x0, my - h, mx - x0 + t - h, t); break;
      }
    }
    return true;
  }

  // The block elements: eighths, halves, shades and quadrants.
  const quadrants = [0b0010, 0b0001, 0b1000, 0b1011, 0b1001, 0b1110, 0b1101, 0b0100, 0b0110, 0b0111];
  function block(cp, x0, y0, f, g) {
    const n = cp - 0x2580;
    if (n === 0) {
      ctx.fillRect(x0, y0, cw, ch >> 1);
    } else if (n <= 8) {
      const h = Math.round(ch * n / 8);
      ctx.fillRect(x0, y0 + ch - h, cw, h);
    } else if (n <= 15) {
      ctx.fillRect(x0, y0, Math.round(cw * (16 - n) / 8), ch);
    } else if (n === 16) {
      ctx.fillRect(x0 + (cw >> 1), y0, cw - (cw >> 1), ch);
    } else if (n <= 19) {
      ctx.fillStyle = cssOf(n === 17 ? mix(mix(f, g), g) : n === 18 ? mix(f, g) : mix(mix(f, g), f));
      ctx.fillRect(x0, y0, cw, ch);
    } else if (n === 20) {
      ctx.fillRect(x0, y0, cw, Math.max(1, Math.round(ch / 8)));
    } else if (n === 21) {
      const w = Math.max(1, Math.round(cw / 8));
      ctx.fillRect(x0 + cw - w, y0, w, ch);
    } else {
      const q = quadrants[n - 22], hw = cw >> 1, hh = ch >> 1;
      if (q & 8) ctx.fillRect(x0, y0, hw, hh);
      if (q & 4) ctx.fillRect(x0 + hw, y0, cw - hw, hh);
      if (q & 2) ctx.fillRect(x0, y0 + hh, hw, ch - hh);
      if (q & 1) ctx.fillRect(x0 + hw, y0 + hh, cw - hw, ch - hh);
    }
    return true;
  }

  // ---- layout ----

  // measure sets the cell's size for a font of px CSS pixels.
  function measure(px) {
    ctx.font = font = `${px * dpr}px ${FONT}`;
    const m = ctx.measureText('M');
    const asc = m.fontBoundingBoxAscent ?? px * dpr * 0.93;
    const desc = m.fontBoundingBoxDescent ?? px * dpr * 0.24;
    fontPx = px;
    cw = Math.max(1, Math.round(m.width));
    ch = Math.max(2, Math.ceil(asc + desc));
    baseline = Math.round(asc);
  }

  // layout picks the font size (the grid at least 80×24, at most 200×60
  // where the window allows) and the grid the page has room for, and
  // sizes the canvas for the grid the server sends, centred, shrunk when
  // it is larger than the window.
  function layout() {
    dpr = window.devicePixelRatio || 1;
    const aw = screen.clientWidth * dpr, ah = screen.clientHeight * dpr;
    const fits = () => [Math.floor(aw / cw), Math.floor(ah / ch)];
    let px = 16;
    measure(px);
    let [c, r] = fits();
    while ((c < MIN_COLS || r < MIN_ROWS) && px > 6) {
      measure(px -= 0.5);
      [c, r] = fits();
    }
    while (c > MAX_COLS || r > MAX_ROWS) {
      measure(px += 1);
      [c, r] = fits();
    }
    cols = Math.min(Math.max(c, 1), 250);
    rows = Math.min(Math.max(r, 1), 100);
    const w = Math.max(W, 1) * cw, h = Math.max(H, 1) * ch;
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w; // which clears it, and resets the context
      canvas.height = h;
      font = '';
      ctx.fillStyle = cssOf(DEFAULT_BG);
      ctx.fillRect(0, 0, w, h);
      dirty.fill(1);
      anyDirty = true;
    }
    ctx.textBaseline = 'alphabetic';
    const scale = Math.min(1, aw / w, ah / h);
    canvas.style.width = `${(w * scale) / dpr}px`;
    canvas.style.height = `${(h * scale) / dpr}px`;
    scheduleDraw();
  }

  let sentCols = 0, sentRows = 0, resizeTimer = 0, lastResize = 0;
  // sendResize tells the server the grid the page has room for, at most
  // every 150 ms while the window is being dragged.
  function sendResize() {
    clearTimeout(resizeTimer);
    const wait = lastResize + 150 - performance.now();
    if (wait > 0) {
      resizeTimer = setTimeout(sendResize, wait);
      return;
    }
    if (cols === sentCols && rows === sentRows) return;
    const b = new Uint8Array(5);
    const v = new DataView(b.buffer);
    b[0] = RESIZE;
    v.setUint16(1, cols, true);
    v.setUint16(3, rows, true);
    if (send(b)) {
      sentCols = cols;
      sentRows = rows;
      lastResize = performance.now();
    }
  }

  window.addEventListener('resize', () => {
    layout();
    sendResize();
  });

  // ---- the connection ----

  const encoder = new TextEncoder();
  // bytesOf is s in UTF-8, cut to max bytes at a character's start.
  function bytesOf(s, max) {
    let b = encoder.encode(s);
    if (b.length > max) {
      let n = max;
      while (n > 0 && (b[n] & 0xc0) === 0x80) n--;
      b = b.subarray(0, n);
    }
    return b;
  }

  // clean is s without control characters, as the server wants text.
  const clean = (s) => s.replace(/[\u0000-\u001f\u007f-\u009f]/g, '');

  function path() {
    try {
      return decodeURIComponent(location.pathname);
    } catch {
      return location.pathname;
    }
  }

  function send(b) {
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(b);
    return true;
  }

  function setStatus(s) {
    status.textContent = s;
  }

  function showNotice(msg, button) {
    noticeText.textContent = msg;
    $('reconnect').textContent = button;
    notice.hidden = false;
  }

  function connect() {
    clearTimeout(retryTimer);
    bye = '';
    notice.hidden = true;
    setStatus('connecting…');
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const sock = new WebSocket(`${scheme}//${location.host}/ws`);
    sock.binaryType = 'arraybuffer';
    ws = sock;
    sock.onopen = () => {
      const p = bytesOf(path(), 255), n = bytesOf(clean(nameInput.value.trim()), 64);
      const b = new Uint8Array(8 + p.length + n.length);
      const v = new DataView(b.buffer);
      b[0] = HELLO;
      b[1] = VERSION;
      v.setUint16(2, cols, true);
      v.setUint16(4, rows, true);
      b[6] = p.length;
      b.set(p, 7);
      b[7 + p.length] = n.length;
      b.set(n, 8 + p.length);
      sock.send(b);
      sentCols = cols;
      sentRows = rows;
      retry = 0;
      setStatus('connected');
      clearInterval(pingTimer);
      pingTimer = setInterval(ping, 20000);
      ping();
    };
    sock.onmessage = (ev) => {
      const b = new Uint8Array(ev.data);
      switch (b[0]) {
        case FRAME:
          try {
            applyFrame(b);
          } catch (err) {
            bye = `the server sent a bad frame (${err.message})`;
            sock.close(4002, "bad frame"); // a page may send 1000 or 3000-4999 only
            return;
          }
          frames++;
          scheduleDraw();
          break;
        case TITLE:
          document.title = utf8.decode(b.subarray(1)) || 'poolroids';
          break;
        case BYE:
          bye = utf8.decode(b.subarray(1));
          break;
        case PONG: {
          const sent = new DataView(b.buffer).getUint32(1, true);
          latency = ((performance.now() >>> 0) - sent) >>> 0;
          setStatus(`connected · ${latency} ms`);
          break;
        }
      }
    };
    sock.onclose = () => {
      if (ws !== sock) return;
      ws = null;
      clearInterval(pingTimer);
      releaseAll();
      if (bye) {
        setStatus('closed');
        showNotice(bye, 'Reconnect');
        return;
      }
      // Lost without a word: try again, less and less often.
      const wait = Math.min(30, 2 ** retry);
      retry++;
      setStatus(`reconnecting in ${wait} s…`);
      showNotice(`The connection was lost. Reconnecting in ${wait} s.`, 'Reconnect now');
      retryTimer = setTimeout(connect, wait * 1000);
    };
  }

  // A page left for another, which the browser may keep in its
  // back-forward cache with its socket open, ends its session there and
  // then: its player plays on the page they went to, in an arena they
  // would else fill twice. Shown again from the cache, it connects anew.
  window.addEventListener('pagehide', () => {
    const sock = ws;
    if (!sock) return;
    ws = null;
    clearInterval(pingTimer);
    sock.close();
  });
  window.addEventListener('pageshow', (e) => {
    if (e.persisted) connect();
  });

  function ping() {
    const b = new Uint8Array(5);
    b[0] = PING;
    new DataView(b.buffer).setUint32(1, performance.now() >>> 0, true);
    send(b);
  }

  $('reconnect').addEventListener('click', () => {
    if (bye) {
      location.reload(); // a new page: the server may have been updated
    } else {
      connect();
    }
  });

  // ---- keys ----

  // The keys that type no character, by the browser's name, and their
  // numbers beyond Unicode.
  const named = [
    'Enter', 'Tab', 'Backspace', 'Escape', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight',
    'Home', 'End', 'PageUp', 'PageDown', 'Insert', 'Delete', 'Shift', 'Control', 'Alt', 'Meta',
    'F1', 'F2', 'F3', 'F4', 'F5', 'F6', 'F7', 'F8', 'F9', 'F10', 'F11', 'F12',
  ];
  const namedKey = new Map(named.map((n, i) => [n, 0x110000 + i]));

  // keyOf returns the key's number: its character, or a named key's; -1
  // for keys the game has no use for (dead keys, media keys…).
  function keyOf(e) {
    const k = namedKey.get(e.key);
    if (k !== undefined) return k;
    const cp = e.key.codePointAt(0);
    if (cp !== undefined && String.fromCodePoint(cp) === e.key && cp >= 0x20 && !(cp >= 0x7f && cp < 0xa0)) return cp;
    return -1;
  }

  // held maps each key down (by its place on the keyboard) to the number
  // sent for it, so that its release is sent as the same key whatever
  // Shift did meanwhile.
  const held = new Map();

  function sendKey(down, key, e) {
    const b = new Uint8Array(6);
    b[0] = KEY;
    b[1] = (down ? 1 : 0) | (e.shiftKey ? 2 : 0) | (e.ctrlKey ? 4 : 0) | (e.altKey ? 8 : 0) | (e.metaKey ? 16 : 0);
    new DataView(b.buffer).setUint32(2, key, true);
    send(b);
  }

  const typing = () => document.activeElement === nameInput;

  window.addEventListener('keydown', (e) => {
    if (typing()) return;
    const key = keyOf(e);
    if (key < 0) return;
    const place = e.code || e.key;
    if (!e.repeat && !held.has(place)) {
      held.set(place, key);
      sendKey(true, key, e);
    }
    // Keep the page from scrolling or moving focus; leave the browser
    // its shortcuts.
    if (!e.ctrlKey && !e.metaKey && !e.altKey && !/^F\d/.test(e.key)) e.preventDefault();
  });

  window.addEventListener('keyup', (e) => {
    const place = e.code || e.key;
    const key = held.get(place);
    if (key === undefined) return;
    held.delete(place);
    sendKey(false, key, e);
  });

  // releaseAll lets go of every key held: a page that loses the focus
  // hears no more releases.
  function releaseAll() {
    const none = { shiftKey: false, ctrlKey: false, altKey: false, metaKey: false };
    for (const key of held.values()) sendKey(false, key, none);
    held.clear();
  }
  window.addEventListener('blur', releaseAll);
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) releaseAll();
  });

  document.addEventListener('paste', (e) => {
    if (typing()) return;
    const s = clean(e.clipboardData.getData('text'));
    if (!s) return;
    e.preventDefault();
    const t = bytesOf(s, 256), b = new Uint8Array(1 + t.length);
    b[0] = TEXT;
    b.set(t, 1);
    send(b);
  });

  // ---- the name ----

  try {
    nameInput.value = localStorage.getItem('poolroids.name') || '';
  } catch { /* storage refused: no name kept */ }

  $('name-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const name = clean(nameInput.value.trim());
    nameInput.value = name;
    try {
      localStorage.setItem('poolroids.name', name);
    } catch { /* storage refused */ }
    const n = bytesOf(name, 64), b = new Uint8Array(1 + n.length);
    b[0] = NAME;
    b.set(n, 1);
    send(b);
    nameInput.blur();
  });
  nameInput.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') nameInput.blur();
  });

  // A hook for tests and the curious: what the page holds.
  window.poolroids = {
    grid: () => ({ w: W, h: H, text: text.slice(), fg: Array.from(fg), bg: Array.from(bg), attr: Array.from(attr), wide: Array.from(wide) }),
    state: () => ({ open: !!ws && ws.readyState === WebSocket.OPEN, bye, frames, draws, cols, rows, fontPx, cw, ch, latency }),
  };

  layout();
  connect();
})();
