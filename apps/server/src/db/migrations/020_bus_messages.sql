-- What each device hears on its CAN buses (issue 14, DESIGN.md section 5 'J1939'), kept at ingest
-- like the latest values: each parameter group from each source once, with when it was last heard,
-- and for DM1 (65226) the controller's last report: its lamps and active faults (SPN, FMI, count).
CREATE TABLE bus_messages (
  device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  bus smallint NOT NULL,
  pgn integer NOT NULL,
  source smallint NOT NULL,
  ts double precision NOT NULL,
  dm1 jsonb,
  PRIMARY KEY (device_id, bus, pgn, source)
);
