import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import { ApiProduces, ApiResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiPublic } from '../http/api-docs';
import { ERROR_BODY } from '../http/http-schemas';
import { openApiSchema } from '../http/openapi-schema';
import { CONSOLE_SECURITY_HEADERS, ConsoleAssets } from './console-assets';

/**
 * The dealer, supervisor and auditor consoles: static pages served by the service itself. They are
 * public like any login page; everything they show comes from role-checked API calls.
 */
@Controller('console')
export class ConsolePagesController {
  constructor(private readonly assets: ConsoleAssets) {}

  @ApiPublic('console pages', "The consoles' start page (HTML)")
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'the page' })
  @Get()
  index(@Res() response: Response): Promise<void> {
    return this.serve('index.html', response);
  }

  @ApiPublic('console pages', 'A console page, script or style sheet')
  @ApiProduces('text/html', 'text/javascript', 'text/css')
  @ApiResponse({ status: 200, description: 'the file' })
  @ApiResponse({ status: 404, description: 'no such file', schema: openApiSchema(ERROR_BODY) })
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
  @ApiPublic('console pages', 'Send a browser to the consoles')
  @ApiResponse({ status: 302, description: 'to /console/' })
  @Get()
  root(@Res() response: Response): void {
    response.redirect(302, '/console/');
  }
}
