import { useLayoutEffect, useRef, useState } from 'react';

/**
 * The scale that fits a drawing `width` px wide into the element the returned ref is on (at most 1:
 * a card is never drawn larger than it was made), kept up to date as that element resizes.
 */
export function useFitScale<T extends HTMLElement>(width: number) {
  const ref = useRef<T>(null);
  const [available, setAvailable] = useState<number | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setAvailable(element.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const scale = available === null || width <= 0 ? 1 : Math.min(1, available / width);
  return { ref, scale };
}
