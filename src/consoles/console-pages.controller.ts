import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { CONSOLE_SECURITY_HEADERS, ConsoleAssets } from './console-assets';

/**
 * The dealer, supervisor and auditor consoles: static pages served by the service itself. They are
 * public like any login page; everything they show comes from role-checked API calls.
 */
@Controller('console')
export class ConsolePagesController {
  constructor(private readonly assets: ConsoleAssets) {}

  @Get()
  index(@Res() response: Response): Promise<void> {
    return this.serve('index.html', response);
  }

  @Get(':file')
  file(@Param('file') file: string, @Res() response: Response): Promise<void> {
    return this.serve(file, response);
  }

  private async serve(name: string, response: Response): Promise<void> {
    const asset = await this.assets.get(name);
    if (!asset) {
      throw new NotFoundException({
        error: 'not-found',
        message: `No console page "${name}"; start at /console/`,
      });
    }
    response.status(200);
    for (const [header, value] of Object.entries(CONSOLE_SECURITY_HEADERS)) {
      response.setHeader(header, value);
    }
    response.setHeader('Content-Type', asset.contentType);
    response.end(asset.body);
  }
}

/** The service's root sends a person who opens it in a browser to the consoles. */
@Controller()
export class RootRedirectController {
  @Get()
  root(@Res() response: Response): void {
    response.redirect(302, '/console/');
  }
}
