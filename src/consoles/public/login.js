import { api, ApiError, flash, HOME_BY_ROLE, storeSession } from './console.js';

const form = document.getElementById('login-form');
const params = new URLSearchParams(location.search);
if (params.has('expired')) flash('Your session ended; sign in again.', 'warn');

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const username = form.username.value.trim();
  const password = form.password.value;
  if (!username || !password) {
    flash('Enter your username and your password.', 'error');
    return;
  }
  flash('Signing in…');
  try {
    const session = await api('/auth/login', { method: 'POST', body: { username, password } });
    storeSession(session.token, session.user);
    const next = params.get('next');
    // Only a console page of this service, never an address from elsewhere.
    location.assign(
      next && /^\/console\/[a-z]+\.html(\?[\w=&.-]*)?$/.test(next)
        ? next
        : HOME_BY_ROLE[session.user.role],
    );
  } catch (error) {
    flash(
      error instanceof ApiError && error.status === 401
        ? 'Unknown username or wrong password.'
        : `Sign-in failed: ${error.message}`,
      'error',
    );
  }
});
