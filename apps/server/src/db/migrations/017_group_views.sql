-- Group dashboard views (issue 13): each group's views as one JSON document each (name,
-- timeRange, widgets), the display order beside it for ordering, and the version that counts
-- the view's saves (a save naming an older version is refused with 409). A group with no row
-- shows core's default view; deleting the group deletes its views.
CREATE TABLE group_views (
  groupid text NOT NULL REFERENCES groups (groupid) ON DELETE CASCADE,
  viewid text NOT NULL,
  sort_order integer NOT NULL CHECK (sort_order BETWEEN 1 AND 100),
  document jsonb NOT NULL,
  version integer NOT NULL CHECK (version >= 0),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (groupid, viewid)
);
