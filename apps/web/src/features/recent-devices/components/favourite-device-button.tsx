import { Button } from 'primereact/button';
import { isFavouriteDevice, toggleFavouriteDevice, useDeviceLists } from '../hooks/use-device-lists';
import './device-lists.css';

interface FavouriteDeviceButtonProps {
  deviceid: string;
  /** The device's display name, kept with the favourite. */
  name: string;
}

/** A star that toggles a favourite; `name` goes into its label. */
export function FavouriteStar({
  favourite,
  name,
  onToggle,
}: {
  favourite: boolean;
  name?: string;
  onToggle: () => void;
}) {
  const what = name ? ` ${name}` : '';
  const label = favourite ? `Remove${what} from favourites` : `Add${what} to favourites`;
  return (
    <Button
      type="button"
      text
      rounded
      className={`device-lists__star${favourite ? ' device-lists__star--on' : ''}`}
      icon={favourite ? 'pi pi-star-fill' : 'pi pi-star'}
      aria-label={label}
      title={label}
      aria-pressed={favourite}
      onClick={onToggle}
    />
  );
}

/** A star that adds the device to the favourites or removes it (for the device page header). */
export function FavouriteDeviceButton({ deviceid, name }: FavouriteDeviceButtonProps) {
  const favourite = isFavouriteDevice(useDeviceLists(), deviceid);
  return <FavouriteStar favourite={favourite} onToggle={() => toggleFavouriteDevice(deviceid, name)} />;
}
