/*
 * wrapfs: a fake-capacity disk for the --verify tests. A FUSE file system with one file,
 * /disk.img, that claims `claimed` bytes but keeps only the `real` bytes of a backing image:
 * every offset at or beyond `real` wraps back to the start (offset % real), as the firmware of
 * fake-capacity USB sticks does. Pages are never cached by the kernel (direct_io), so a read
 * always sees what the wrap left there.
 *
 *   cc -O2 -o wrapfs wrapfs.c $(pkg-config fuse3 --cflags --libs)
 *   wrapfs BACKING_IMAGE CLAIMED_BYTES MOUNTPOINT -f -s
 */
#define FUSE_USE_VERSION 31
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int backing = -1;
static off_t real_bytes, claimed_bytes;
static const char *image_name = "/disk.img";

static int wrap_getattr(const char *path, struct stat *st, struct fuse_file_info *fi) {
  (void)fi;
  memset(st, 0, sizeof *st);
  if (strcmp(path, "/") == 0) {
    st->st_mode = S_IFDIR | 0755;
    st->st_nlink = 2;
    return 0;
  }
  if (strcmp(path, image_name) != 0) return -ENOENT;
  st->st_mode = S_IFREG | 0600;
  st->st_nlink = 1;
  st->st_size = claimed_bytes;
  return 0;
}

static int wrap_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t offset,
                        struct fuse_file_info *fi, enum fuse_readdir_flags flags) {
  (void)offset, (void)fi, (void)flags;
  if (strcmp(path, "/") != 0) return -ENOENT;
  fill(buf, ".", NULL, 0, 0);
  fill(buf, "..", NULL, 0, 0);
  fill(buf, image_name + 1, NULL, 0, 0);
  return 0;
}

static int wrap_open(const char *path, struct fuse_file_info *fi) {
  if (strcmp(path, image_name) != 0) return -ENOENT;
  fi->direct_io = 1;
  return 0;
}

/* Moves `size` bytes at `offset` of the claimed disk, piece by piece where the wrap cuts it. */
static int transfer(char *buf, size_t size, off_t offset, int write) {
  if (offset >= claimed_bytes) return 0;
  if ((off_t)size > claimed_bytes - offset) size = (size_t)(claimed_bytes - offset);
  size_t done = 0;
  while (done < size) {
    off_t at = (offset + (off_t)done) % real_bytes;
    size_t n = size - done;
    if ((off_t)n > real_bytes - at) n = (size_t)(real_bytes - at);
    ssize_t moved = write ? pwrite(backing, buf + done, n, at) : pread(backing, buf + done, n, at);
    if (moved < 0) return -errno;
    if (moved == 0) break;
    done += (size_t)moved;
  }
  return (int)done;
}

static int wrap_read(const char *path, char *buf, size_t size, off_t offset,
                     struct fuse_file_info *fi) {
  (void)path, (void)fi;
  return transfer(buf, size, offset, 0);
}

static int wrap_write(const char *path, const char *buf, size_t size, off_t offset,
                      struct fuse_file_info *fi) {
  (void)path, (void)fi;
  return transfer((char *)buf, size, offset, 1);
}

static int wrap_fsync(const char *path, int datasync, struct fuse_file_info *fi) {
  (void)path, (void)fi;
  return (datasync ? fdatasync(backing) : fsync(backing)) < 0 ? -errno : 0;
}

static int wrap_truncate(const char *path, off_t size, struct fuse_file_info *fi) {
  (void)path, (void)size, (void)fi;
  return 0; /* the disk's size is fixed */
}

static const struct fuse_operations operations = {
    .getattr = wrap_getattr,
    .readdir = wrap_readdir,
    .open = wrap_open,
    .read = wrap_read,
    .write = wrap_write,
    .fsync = wrap_fsync,
    .truncate = wrap_truncate,
};

int main(int argc, char *argv[]) {
  if (argc < 4) {
    fprintf(stderr, "usage: wrapfs BACKING_IMAGE CLAIMED_BYTES MOUNTPOINT [fuse options]\n");
    return 2;
  }
  backing = open(argv[1], O_RDWR);
  if (backing < 0) {
    perror(argv[1]);
    return 1;
  }
  struct stat st;
  if (fstat(backing, &st) < 0 || st.st_size <= 0) {
    fprintf(stderr, "wrapfs: %s is empty\n", argv[1]);
    return 1;
  }
  real_bytes = st.st_size;
  claimed_bytes = (off_t)strtoll(argv[2], NULL, 10);
  if (claimed_bytes < real_bytes) {
    fprintf(stderr, "wrapfs: the claimed size must be at least the real one\n");
    return 2;
  }
  /* fuse_main sees: program, mountpoint, the rest. */
  argv[2] = argv[0];
  return fuse_main(argc - 2, argv + 2, &operations, NULL);
}
