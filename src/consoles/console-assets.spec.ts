import { NotFoundException } from '@nestjs/common';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  CONSOLE_FILES,
  CONSOLE_SECURITY_HEADERS,
  ConsoleAssets,
  findConsoleAssets,
  VENDOR_FILES,
} from './console-assets';
import { ConsolePagesController } from './console-pages.controller';

const repository = resolve(__dirname, '..', '..');
const publicDir = join(repository, 'src', 'consoles', 'public');

/** The parts of an express Response the controller uses. */
class RecordedResponse {
  statusCode = 0;
  readonly headers: Record<string, string> = {};
  body?: Buffer;
  status(code: number) {
    this.statusCode = code;
    return this;
  }
  setHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  end(body: Buffer) {
    this.body = body;
  }
}

describe('console pages', () => {
  it('finds the pages from the source tree and from the compiled service in dist/', () => {
    expect(findConsoleAssets(__dirname)).toBe(publicDir);
    expect(findConsoleAssets(join(repository, 'dist', 'src', 'consoles'))).toBe(publicDir);
    // A build outside the repository, started from the repository.
    expect(findConsoleAssets('/tmp/elsewhere/dist/src/consoles', repository)).toBe(publicDir);
    expect(() => findConsoleAssets('/', '/')).toThrow(
      'The console pages (src/consoles/public) were not found above / or /',
    );
  });

  it('serves exactly the listed files, every one of which exists', () => {
    const served = Object.keys(CONSOLE_FILES)
      .filter((f) => !(f in VENDOR_FILES))
      .sort();
    const onDisk = readdirSync(publicDir)
      .filter((f) => !f.endsWith('.d.ts'))
      .sort();
    expect(served).toEqual(onDisk);
    for (const file of served) expect(existsSync(join(publicDir, file))).toBe(true);
  });

  it('answers with the content type and a strict Content-Security-Policy', async () => {
    const controller = new ConsolePagesController(new ConsoleAssets());
    const page = new RecordedResponse();
    await controller.file('dealer.html', page as never);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body?.toString()).toContain('<script type="module" src="/console/dealer.js">');
    const csp = page.headers['content-security-policy'];
    expect(csp).toBe(CONSOLE_SECURITY_HEADERS['Content-Security-Policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers['x-content-type-options']).toBe('nosniff');

    const script = new RecordedResponse();
    await controller.file('console.js', script as never);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');

    const index = new RecordedResponse();
    await controller.index(index as never);
    expect(index.body?.toString()).toContain('id="login-form"');
  });

  it('serves uPlot from the installed package, as an ES module', async () => {
    const controller = new ConsolePagesController(new ConsoleAssets());
    const script = new RecordedResponse();
    await controller.file('uPlot.esm.js', script as never);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body?.toString()).toContain('export { uPlot as default }');
    const css = new RecordedResponse();
    await controller.file('uPlot.min.css', css as never);
    expect(css.body?.toString()).toContain('.uplot');
  });

  it('refuses anything else, paths and prototype names included, with a clear 404', async () => {
    const controller = new ConsolePagesController(new ConsoleAssets());
    for (const name of [
      '../package.json',
      '..%2Fpackage.json',
      'format.d.ts',
      'constructor',
      'x.html',
    ]) {
      await expect(controller.file(name, new RecordedResponse() as never)).rejects.toThrow(
        NotFoundException,
      );
    }
    await expect(
      controller.file('secret.html', new RecordedResponse() as never),
    ).rejects.toMatchObject({
      response: {
        error: 'not-found',
        message: 'No console page "secret.html"; start at /console/',
      },
    });
  });

  it('has no inline script or style in any page (the policy would block it)', async () => {
    const assets = new ConsoleAssets();
    for (const file of Object.keys(CONSOLE_FILES).filter((f) => f.endsWith('.html'))) {
      const html = (await assets.get(file))!.body.toString();
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(html).not.toMatch(/\son[a-z]+=/i);
      expect(html).not.toMatch(/<style|\sstyle=/i);
    }
  });
});
