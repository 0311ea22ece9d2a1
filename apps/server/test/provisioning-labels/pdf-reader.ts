/**
 * Reads back the PDFs and PNGs the portal makes, with poppler (pdfinfo, pdftotext, pdftoppm, on
 * the machine: Debian's poppler-utils) and pngjs + jsQR: page count and size, text per page, and
 * the QR code a page or an image shows.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';

const run = promisify(execFile);

async function withPdf<T>(pdf: Buffer, fn: (file: string, dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'portal-pdf-'));
  try {
    const file = join(dir, 'in.pdf');
    await writeFile(file, pdf);
    return await fn(file, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** pdfinfo's page count and first page size (points). */
export function pdfInfo(pdf: Buffer): Promise<{ pages: number; width: number; height: number; title: string }> {
  return withPdf(pdf, async (file) => {
    const { stdout } = await run('pdfinfo', [file]);
    const field = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'm').exec(stdout)?.[1] ?? '';
    const size = /([\d.]+) x ([\d.]+) pts/.exec(field('Page size'));
    return {
      pages: Number(field('Pages')),
      width: Number(size?.[1]),
      height: Number(size?.[2]),
      title: field('Title'),
    };
  });
}

/** The text of each page (pdftotext), pages in order. */
export function pdfPageTexts(pdf: Buffer): Promise<string[]> {
  return withPdf(pdf, async (file) => {
    const { stdout } = await run('pdftotext', ['-layout', file, '-']);
    const pages = stdout.split('\f');
    if (pages.at(-1)?.trim() === '') pages.pop();
    return pages;
  });
}

/** The text a QR code in a PNG decodes to, or null. */
export function qrOfPng(png: Buffer): string | null {
  const image = PNG.sync.read(png);
  return (
    jsQR(new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length), image.width, image.height)
      ?.data ?? null
  );
}

/** A page of the PDF rendered (pdftoppm) as a PNG at `dpi`. */
export function pdfPagePng(pdf: Buffer, page: number, dpi = 150): Promise<Buffer> {
  return withPdf(pdf, async (file, dir) => {
    await run('pdftoppm', [
      '-png',
      '-r',
      String(dpi),
      '-f',
      String(page),
      '-l',
      String(page),
      '-singlefile',
      file,
      join(dir, 'page'),
    ]);
    return readFile(join(dir, 'page.png'));
  });
}
