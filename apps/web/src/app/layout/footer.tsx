import { brand } from '@/lib/brand';

/** One quiet line: the brand's own text, or the copyright with Terms of Service and Privacy Policy. */
export function Footer() {
  if (brand.hideFooter) return null;
  return (
    <footer className="app-footer">
      {brand.footerText ? (
        <span className="app-footer__text">{brand.footerText}</span>
      ) : (
        <>
          <span className="app-footer__text">
            © {new Date().getFullYear()} {brand.name}
          </span>
          <a href={brand.termsOfServiceURL} target="_blank" rel="noopener">
            Terms of Service
          </a>
          <a href={brand.privacyPolicyURL} target="_blank" rel="noopener">
            Privacy Policy
          </a>
        </>
      )}
    </footer>
  );
}
