/** Device families covered by the statement (spec 2 section 2). */
const FAMILIES = [
  {
    family: 'ORB',
    part: 'ORB-C1',
    description: 'Compact telemetry unit with cellular connectivity, GPS and on-board sensors.',
  },
  {
    family: 'QUAD',
    part: 'QUAD-C2',
    description: 'Four-channel telemetry unit with cellular connectivity, GPS and vehicle bus inputs.',
  },
] as const;

/** /fcc: the FCC Part 15 regulatory statement for the ORB and QUAD device families. */
export function FccStatement() {
  return (
    <article className="page page--narrow fcc" aria-labelledby="fcc-title">
      <header className="page-header">
        <h1 id="fcc-title" className="page-title">
          Regulatory information
        </h1>
        <p className="page-subtitle">FCC statement for the ORB and QUAD device families</p>
      </header>

      <div className="fcc-families">
        {FAMILIES.map((item) => (
          <section key={item.part} className="card fcc-family" aria-labelledby={`fcc-${item.part}`}>
            <h2 id={`fcc-${item.part}`} className="fcc-family__name">
              {item.family}
            </h2>
            <dl className="fcc-family__facts">
              <dt>Part number</dt>
              <dd>
                <code>{item.part}</code>
              </dd>
            </dl>
            <p className="muted">{item.description}</p>
          </section>
        ))}
      </div>

      <section className="card fcc-text" aria-labelledby="fcc-compliance">
        <h2 id="fcc-compliance">FCC Part 15 compliance</h2>
        <p>
          The ORB (part ORB-C1) and QUAD (part QUAD-C2) devices comply with Part 15 of the FCC Rules. Their operation is
          allowed on two conditions:
        </p>
        <ol>
          <li>the device must not cause harmful interference; and</li>
          <li>
            the device must accept any interference it receives, including interference that may make it operate in an
            unintended way.
          </li>
        </ol>

        <h2>Class B digital device</h2>
        <p>
          These devices have been tested and found to stay within the limits for a Class B digital device under Part 15
          of the FCC Rules. Those limits exist to give reasonable protection against harmful interference in a
          residential installation. The devices generate, use and can radiate radio-frequency energy and, if not
          installed and used as the instructions describe, may cause harmful interference to radio communications. There
          is no guarantee that interference will not occur in a particular installation.
        </p>
        <p>
          If a device does cause harmful interference to radio or television reception, which you can confirm by
          switching it off and on, try one or more of the following:
        </p>
        <ul>
          <li>turn or move the receiving antenna;</li>
          <li>increase the distance between the device and the receiver;</li>
          <li>connect the receiver to an outlet on a different circuit from the device;</li>
          <li>ask the dealer or an experienced radio or television technician for help.</li>
        </ul>

        <h2>Radio-frequency exposure</h2>
        <p>
          These devices meet the FCC limits for radio-frequency exposure in an uncontrolled environment. Install and
          operate them so that at least 20 cm separates the antenna from any person. They must not be placed next to, or
          operated together with, any other antenna or transmitter.
        </p>

        <h2>Changes and modifications</h2>
        <p>
          Changes or modifications to these devices that the party responsible for compliance has not expressly approved
          can void your authority to operate the equipment.
        </p>
      </section>
    </article>
  );
}
