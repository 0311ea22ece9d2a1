import { brand } from '@/lib/brand';

/** The brand's wordmark at the spec's logo height (42; carbon 24; air-quality 41). */
export function BrandLogo({ className }: { className?: string }) {
  return (
    <img
      className={className ?? 'brand-logo'}
      src={brand.mainBrandImg}
      alt={brand.name}
      height={brand.mainBrandHeight}
      style={{ height: brand.mainBrandHeight }}
    />
  );
}
