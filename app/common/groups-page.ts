/**
 * Duplicate groups sent at once: a scan or a kept scan comes with its first page of groups, and
 * space.groups gives the others a page at a time (a scan of 300,000 groups is 180 MB whole).
 */
export const groupsPage = 200;
export const firstGroupsPage = groupsPage;
