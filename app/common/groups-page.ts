/**
 * Duplicate groups sent at once: a scan or a kept scan comes with its first page of groups, and
 * space.groups gives the others a page at a time (a scan of 300,000 groups is 180 MB whole). The
 * first page holds every group of a scan of up to 5,000 (about 3 MB), so filters, "select every
 * group" and "keep the copies in this folder" act on all of them for a typical scan; only a
 * larger one is paged, 2,000 groups a page after the first.
 */
export const firstGroupsPage = 5000;
export const groupsPage = 2000;
