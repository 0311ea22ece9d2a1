import type { ReactNode } from 'react';
import { BrandLogo } from '@/components/ui/brand-logo';

interface AuthCardProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  /** Links under the form, inside the card. */
  links?: ReactNode;
}

/** The centred card of the signed-out screens: brand logo, title, form, links. */
export function AuthCard({ title, subtitle, children, links }: AuthCardProps) {
  return (
    <div className="auth-page">
      <section className="auth-card" aria-labelledby="auth-card-title">
        <div className="auth-card__logo">
          <BrandLogo />
        </div>
        <h1 id="auth-card-title" className="auth-card__title">
          {title}
        </h1>
        {subtitle && <p className="auth-card__subtitle">{subtitle}</p>}
        {children}
        {links && <div className="auth-card__links">{links}</div>}
      </section>
    </div>
  );
}
