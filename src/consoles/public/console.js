// What every console page shares: the sign-in token, API calls, the live stream, small DOM helpers.
// The token lives in sessionStorage (gone when the tab closes) and travels only in the
// Authorization header, never in a URL.

const TOKEN_KEY = 'studio.console.token';
const SILENCE_LIMIT_MS = 40_000;
const USER_KEY = 'studio.console.user';

/** The page each role lands on after signing in. */
export const HOME_BY_ROLE = {
  dealer: '/console/dealer.html',
  supervisor: '/console/supervisor.html',
  auditor: '/console/auditor.html',
};

export class ApiError extends Error {
  /** @param {number} status @param {string} code @param {string} message */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export function storeSession(token, user) {
  sessionStorage.setItem(TOKEN_KEY, token);
  sessionStorage.setItem(USER_KEY, JSON.stringify(user));
}

export function clearSession() {
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(USER_KEY);
}

function token() {
  return sessionStorage.getItem(TOKEN_KEY);
}

/** What a person reads when the service cannot be reached at all (the browser says "Failed to fetch"). */
export const UNREACHABLE = 'The service does not answer: check the network, then try again';

/** A fetch whose network failure (no answer at all) reads as words, not as the browser's TypeError. */
async function reach(request) {
  try {
    return await request();
  } catch (error) {
    if (error instanceof TypeError) throw new ApiError(0, 'unreachable', UNREACHABLE);
    throw error;
  }
}

/**
 * The session ended: the sign-in page, which brings the user back to this page (the dealer to
 * the same table) once signed in again.
 */
function signInAgain() {
  clearSession();
  location.assign(
    `/console/?expired=1&next=${encodeURIComponent(location.pathname + location.search)}`,
  );
}

/** Calls the service's API with the bearer token; a refusal throws ApiError with its reason. */
export async function api(path, { method = 'GET', body } = {}) {
  const headers = { accept: 'application/json' };
  const t = token();
  if (t) headers.authorization = `Bearer ${t}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await reach(() =>
    fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  // A session that ended (expired, revoked, the service's sign-ins reset) signs in again and
  // comes back here; a refused sign-in itself sent no token and is the sign-in page's to say.
  if (response.status === 401 && t && path !== '/auth/login') {
    signInAgain();
    throw new ApiError(401, 'session-ended', 'Your session ended; sign in again.');
  }
  if (response.status === 204) return undefined;
  const text = await response.text();
  let data;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = { message: text };
  }
  if (!response.ok) {
    throw new ApiError(
      response.status,
      data?.error ?? `http-${response.status}`,
      data?.message ?? `The service answered ${response.status}`,
    );
  }
  return data;
}

/** Downloads a file from the API (exports) with the bearer token, via a blob: URL. */
export async function download(path, filename) {
  const response = await reach(() =>
    fetch(path, { headers: { authorization: `Bearer ${token()}` } }),
  );
  if (response.status === 401) {
    signInAgain();
    throw new ApiError(401, 'session-ended', 'Your session ended; sign in again.');
  }
  if (!response.ok) {
    const data = await response.json().catch(() => ({}));
    throw new ApiError(
      response.status,
      data.error ?? 'download-failed',
      data.message ?? 'Download failed',
    );
  }
  const url = URL.createObjectURL(await response.blob());
  const link = el('a', { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Checks the session and the role before a page shows anything. Without a session the page goes to
 * the sign-in page; with the wrong role it explains which role the page needs.
 * @param {string[]} roles roles that may use this page
 * @returns {Promise<{username: string, displayName: string, role: string} | null>}
 */
export async function requireRole(roles, pageName) {
  if (!token()) {
    location.assign(`/console/?next=${encodeURIComponent(location.pathname + location.search)}`);
    return null;
  }
  let user;
  try {
    user = await api('/auth/me');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null; // signing in again
    throw error;
  }
  renderHeader(user);
  if (!roles.includes(user.role)) {
    const main = document.querySelector('main');
    main.replaceChildren(
      el('section', { className: 'denied', role: 'alert', id: 'access-denied' }, [
        el('h2', {}, `The ${pageName} needs the ${roles.join(' or ')} role`),
        el(
          'p',
          {},
          `You are signed in as ${user.displayName} (${user.role}). Ask a supervisor, or open your own console.`,
        ),
        el('a', { href: HOME_BY_ROLE[user.role], className: 'button' }, 'Open my console'),
      ]),
    );
    return null;
  }
  return user;
}

function renderHeader(user) {
  const nav = document.getElementById('nav');
  if (!nav) return;
  const links = [];
  if (user.role === 'dealer' || user.role === 'supervisor')
    links.push(['Dealer', HOME_BY_ROLE.dealer]);
  if (user.role === 'supervisor') {
    links.push(['Supervisor', HOME_BY_ROLE.supervisor]);
    links.push(['Hold monitoring', '/console/hold.html']);
  }
  if (user.role === 'auditor') links.push(['Auditor', HOME_BY_ROLE.auditor]);
  const signOut = el('button', { type: 'button', className: 'quiet', id: 'sign-out' }, 'Sign out');
  signOut.addEventListener('click', async () => {
    await api('/auth/logout', { method: 'POST' }).catch(() => undefined);
    clearSession();
    location.assign('/console/');
  });
  nav.replaceChildren(
    ...links.map(([label, href]) =>
      el('a', { href, ...(location.pathname === href ? { 'aria-current': 'page' } : {}) }, label),
    ),
    el('span', { className: 'who' }, `${user.displayName} · ${user.role}`),
    signOut,
  );
}

/**
 * Reads a Server-Sent Events stream with fetch (EventSource cannot send the Authorization header)
 * and reconnects with backoff. `onEvent(name, data)` gets every event; `onStatus(text, ok)` the
 * connection state. Returns a function that stops it.
 */
/** The page's connection pill (`#connection`): "live" in green, anything else as a warning. */
export function showConnection(text, ok) {
  const pill = document.getElementById('connection');
  if (!pill) return;
  pill.textContent = text;
  pill.className = `pill ${ok ? 'ok' : 'warn'}`;
}

export function openStream(path, { onEvent, onStatus, onDenied }) {
  let stopped = false;
  let controller;
  let delay = 500;
  async function run() {
    while (!stopped) {
      controller = new AbortController();
      try {
        const response = await fetch(path, {
          headers: { authorization: `Bearer ${token()}`, accept: 'text/event-stream' },
          signal: controller.signal,
        });
        if (response.status === 401) {
          signInAgain();
          return;
        }
        if (response.status === 403 || response.status === 404) {
          const data = await response.json().catch(() => ({}));
          onDenied?.(data.message ?? `The service answered ${response.status}`, response.status);
          return;
        }
        if (!response.ok || !response.body)
          throw new Error(`The service answered ${response.status}`);
        onStatus?.('live', true);
        delay = 500;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        // The service sends a heartbeat every 15 s: silence for 40 s means a dead connection
        // (a cable pulled, a proxy that dropped it) that TCP may take minutes to notice.
        let heard = Date.now();
        const watchdog = setInterval(() => {
          if (Date.now() - heard > SILENCE_LIMIT_MS) controller.abort(new Error('no heartbeat'));
        }, 5_000);
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            heard = Date.now();
            buffer += value;
            let end;
            while ((end = buffer.indexOf('\n\n')) >= 0) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              let name = 'message';
              let data = '';
              for (const line of block.split('\n')) {
                if (line.startsWith('event: ')) name = line.slice(7);
                else if (line.startsWith('data: ')) data += line.slice(6);
              }
              if (data) onEvent(name, JSON.parse(data));
            }
          }
        } finally {
          clearInterval(watchdog);
        }
        if (!stopped) onStatus?.('reconnecting…', false);
      } catch (error) {
        if (stopped) return;
        // The browser's "Failed to fetch" means the service did not answer at all.
        const why = error instanceof TypeError ? 'the service does not answer' : error?.message;
        onStatus?.(`reconnecting… (${why ?? error})`, false);
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 10_000);
    }
  }
  void run();
  return () => {
    stopped = true;
    controller?.abort();
  };
}

/**
 * Builds an element. `attrs` are properties (className, id, type...) or attributes (aria-*,
 * data-*, for); children are nodes or text. Text never becomes markup.
 */
export function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('aria-') || key.startsWith('data-') || key === 'for' || key === 'role') {
      node.setAttribute(key, value === true ? '' : String(value));
    } else {
      node[key] = value;
    }
  }
  for (const child of [].concat(children)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replaces a node's children, skipping the null / false left by conditional parts. */
export function fill(node, ...children) {
  node.replaceChildren(...children.filter((c) => c !== null && c !== undefined && c !== false));
}

/** Shows a short message in the page's status line (announced to screen readers). */
export function flash(text, kind = 'info') {
  const box = document.getElementById('flash');
  if (!box) return;
  box.className = `flash ${kind}`;
  box.textContent = text;
}

/** Game phases and slots as people at the table say them. */
export function humanize(text) {
  return String(text ?? '')
    .replace(/[-_]/g, ' ')
    .replace(/^./, (c) => c.toUpperCase());
}

/**
 * Asks for a confirmation in an in-page dialog (keyboard: Tab between fields, Escape cancels).
 * `fields` are {name, label, kind: 'text' | 'textarea' | 'select' | 'checkbox', options, pattern,
 * hint}; every field is required. Resolves with the values, or null when cancelled.
 */
export function ask({ title, text, confirmLabel, danger = false, fields = [] }) {
  return new Promise((resolve) => {
    const inputs = fields.map((f) => {
      const id = `ask-${f.name}`;
      let input;
      if (f.kind === 'textarea')
        input = el('textarea', { id, name: f.name, required: true, rows: 3 });
      else if (f.kind === 'select') {
        input = el(
          'select',
          { id, name: f.name, required: true },
          f.options.map((o) => el('option', { value: o.value }, o.label)),
        );
      } else if (f.kind === 'checkbox')
        input = el('input', { id, name: f.name, type: 'checkbox', required: true });
      else
        input = el('input', {
          id,
          name: f.name,
          required: true,
          ...(f.pattern ? { pattern: f.pattern } : {}),
          autocomplete: 'off',
        });
      const label = el('label', { for: id }, f.label);
      const row =
        f.kind === 'checkbox'
          ? el('div', { className: 'check' }, [input, label])
          : el('div', { className: 'field' }, [label, input]);
      if (f.hint) row.append(el('p', { className: 'hint' }, f.hint));
      return { field: f, input, row };
    });
    const error = el('p', { className: 'flash error', role: 'alert' });
    const confirmButton = el(
      'button',
      { type: 'submit', className: danger ? 'danger big' : 'primary big', id: 'ask-confirm' },
      confirmLabel,
    );
    const cancelButton = el(
      'button',
      { type: 'button', className: 'big', id: 'ask-cancel' },
      'Cancel',
    );
    const form = el('form', { method: 'dialog', noValidate: true }, [
      el('h2', { id: 'ask-title' }, title),
      text ? el('p', {}, text) : null,
      ...inputs.map((i) => i.row),
      error,
      el('div', { className: 'buttons' }, [cancelButton, confirmButton]),
    ]);
    const dialog = el('dialog', { className: 'ask', 'aria-labelledby': 'ask-title' }, form);
    document.body.append(dialog);
    // Keyboard users land back where they were (if that control is still on the page).
    const opener = document.activeElement;
    const finish = (value) => {
      dialog.close();
      dialog.remove();
      if (opener?.isConnected) opener.focus();
      resolve(value);
    };
    cancelButton.addEventListener('click', () => finish(null));
    dialog.addEventListener('cancel', (e) => {
      e.preventDefault();
      finish(null);
    });
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const values = {};
      for (const { field, input } of inputs) {
        if (field.kind === 'checkbox') {
          if (!input.checked) return showError(`Tick “${field.label}” to go on.`, input);
          values[field.name] = true;
        } else {
          const value = input.value.trim();
          if (!value) return showError(`${field.label} is required.`, input);
          if (field.pattern && !new RegExp(`^(?:${field.pattern})$`).test(value)) {
            return showError(`${field.label}: ${field.hint ?? 'not in the expected form'}.`, input);
          }
          values[field.name] = value;
        }
      }
      finish(values);
    });
    function showError(message, input) {
      error.textContent = message;
      input.focus();
    }
    dialog.showModal();
    (inputs[0]?.input ?? confirmButton).focus();
  });
}
