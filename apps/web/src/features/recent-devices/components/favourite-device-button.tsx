import { Button } from 'primereact/button';
import { isFavouriteDevice, toggleFavouriteDevice, useDeviceLists } from '../hooks/use-device-lists';
import './device-lists.css';

interface FavouriteDeviceButtonProps {
  deviceid: string;
  /** The device's display name, kept with the favourite. */
  name: string;
}

/** A star that adds the device to the favourites or removes it (for the device page header). */
export function FavouriteDeviceButton({ deviceid, name }: FavouriteDeviceButtonProps) {
  const favourite = isFavouriteDevice(useDeviceLists(), deviceid);
  const label = favourite ? 'Remove from favourites' : 'Add to favourites';
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
      onClick={() => toggleFavouriteDevice(deviceid, name)}
    />
  );
}
