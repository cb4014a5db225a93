#!/usr/bin/python3
"""A disk that fails: a FUSE passthrough of BACKING mounted at MOUNT whose reads return EIO once
TRIGGER exists, the way a dying drive or a lost network filesystem answers read(2).

    failing_fs.py BACKING MOUNT TRIGGER [--from-offset BYTES] [--max-read BYTES]

Reads that start at or past --from-offset fail (default 4096: a file's first page, where
clusterbench keeps its header, still reads, so a run's set-up succeeds and its steps fail).
With --max-read no read returns more than that many bytes: the short reads, without an error,
that FUSE and network filesystems give and a reader must continue (direct_io hands them to the
caller as they are).
Everything else (create, write, truncate, fsync, statfs, unlink) passes through. Mounted with
direct_io, so no read is answered from the page cache. Runs in the foreground until unmounted.
Needs root, /dev/fuse and Debian's python3-fusepy.
"""
import argparse
import errno
import os

from fusepy import FUSE, FuseOSError, Operations


class FailingDisk(Operations):
    def __init__(self, backing, trigger, from_offset, max_read=0):
        self.backing = backing
        self.trigger = trigger
        self.from_offset = from_offset
        self.max_read = max_read

    def _path(self, path):
        return os.path.join(self.backing, path.lstrip("/"))

    def _errno(self, call, *args):
        try:
            return call(*args)
        except OSError as e:
            raise FuseOSError(e.errno)

    def getattr(self, path, fh=None):
        st = self._errno(os.lstat, self._path(path))
        keys = ("st_atime", "st_ctime", "st_gid", "st_mode", "st_mtime", "st_nlink", "st_size",
                "st_uid", "st_blocks")
        return {k: getattr(st, k) for k in keys}

    def readdir(self, path, fh):
        return [".", ".."] + self._errno(os.listdir, self._path(path))

    def statfs(self, path):
        st = self._errno(os.statvfs, self._path(path))
        keys = ("f_bavail", "f_bfree", "f_blocks", "f_bsize", "f_favail", "f_ffree", "f_files",
                "f_flag", "f_frsize", "f_namemax")
        return {k: getattr(st, k) for k in keys}

    def open(self, path, flags):
        # The backing file is opened without O_DIRECT: the mount's direct_io already keeps every
        # read off the page cache, and the backing filesystem may not take O_DIRECT.
        return self._errno(os.open, self._path(path), flags & ~os.O_DIRECT)

    def create(self, path, mode, fi=None):
        return self._errno(os.open, self._path(path), os.O_RDWR | os.O_CREAT, mode)

    def read(self, path, size, offset, fh):
        if offset >= self.from_offset and os.path.exists(self.trigger):
            raise FuseOSError(errno.EIO)
        if self.max_read > 0:
            size = min(size, self.max_read)
        return self._errno(os.pread, fh, size, offset)

    def write(self, path, data, offset, fh):
        return self._errno(os.pwrite, fh, data, offset)

    def truncate(self, path, length, fh=None):
        if fh is not None:
            return self._errno(os.ftruncate, fh, length)
        return self._errno(os.truncate, self._path(path), length)

    def fsync(self, path, datasync, fh):
        return self._errno(os.fdatasync if datasync else os.fsync, fh)

    def flush(self, path, fh):
        return 0

    def release(self, path, fh):
        return self._errno(os.close, fh)

    def unlink(self, path):
        return self._errno(os.unlink, self._path(path))

    def rename(self, old, new):
        return self._errno(os.rename, self._path(old), self._path(new))

    def chmod(self, path, mode):
        return self._errno(os.chmod, self._path(path), mode)

    def utimens(self, path, times=None):
        return self._errno(os.utime, self._path(path), times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("backing")
    ap.add_argument("mount")
    ap.add_argument("trigger")
    ap.add_argument("--from-offset", type=int, default=4096)
    ap.add_argument("--max-read", type=int, default=0)
    args = ap.parse_args()
    FUSE(FailingDisk(os.path.abspath(args.backing), os.path.abspath(args.trigger),
                     args.from_offset, args.max_read),
         args.mount, foreground=True, nothreads=True, direct_io=True)


if __name__ == "__main__":
    main()
