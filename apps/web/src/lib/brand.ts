/**
 * The brand of this page, chosen once from the host name (spec 1 section 1), and its
 * application to the document: title, style sheet, favicon, colour tokens.
 */
import { brandForHost, pageTitle, withBrandOverrides, type BrandConfig, type BrandOverrides } from '@portal/core';

/**
 * The brand fields the server's configuration sets over the built-in table (BRAND_OVERRIDES),
 * which the server writes into index.html as a JSON block; none without one.
 */
function configuredOverrides(): BrandOverrides {
  try {
    return (JSON.parse(document.getElementById('brand-overrides')?.textContent || '{}') as BrandOverrides | null) ?? {};
  } catch {
    return {};
  }
}

export const brand: BrandConfig = brandForHost(location.hostname, withBrandOverrides(configuredOverrides()));

/** The base document title: 'Portal', or 'Dev Portal' on the development host. */
export const baseTitle: string = pageTitle(location.hostname);

const STYLE_TIMEOUT_MS = 2000;

/**
 * Sets the title, favicon and brand style sheet. Resolves once the style sheet has loaded (or
 * failed, or after 2 s) so the first frame is already in the brand's colours.
 */
export function applyBrand(doc: Document = document): Promise<void> {
  doc.title = baseTitle;
  doc.documentElement.dataset.brand = brand.id;

  const favicon = doc.getElementById('favicon');
  if (favicon instanceof HTMLLinkElement) favicon.href = `${brand.faviconPrefix}favicon.svg`;

  const link = doc.createElement('link');
  link.rel = 'stylesheet';
  link.href = brand.style;
  link.id = 'brand-style';
  const loaded = new Promise<void>((resolve) => {
    link.addEventListener('load', () => resolve(), { once: true });
    link.addEventListener('error', () => resolve(), { once: true });
    setTimeout(resolve, STYLE_TIMEOUT_MS);
  });
  doc.head.appendChild(link);
  return loaded;
}
