import { Link } from 'react-router';

/** Home for a user with no groups (spec 1 section 1): one sentence and the action that fills it. */
export function WelcomePanel() {
  return (
    <section className="welcome-panel card" aria-labelledby="welcome-title">
      <div className="welcome-panel__icon" aria-hidden="true">
        <i className="pi pi-box" />
      </div>
      <h1 id="welcome-title" className="welcome-panel__title">
        Welcome
      </h1>
      <p className="welcome-panel__text">
        You are not in a group yet: add a device to get started, or ask a group admin to add you to their group by
        e-mail.
      </p>
      <Link to="/add" className="p-button welcome-panel__action">
        <i className="pi pi-plus" aria-hidden="true" />
        <span>Add Device</span>
      </Link>
    </section>
  );
}
