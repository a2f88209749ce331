"""File systems of ``fleet.utils``: ``LocalFS`` on os / shutil; ``HDFSClient`` needs a hadoop
installation, which paddle_compat does not drive."""
import os
import shutil

__all__ = ["FS", "LocalFS", "HDFSClient", "FSFileExistsError", "FSFileNotExistsError",
           "FSTimeOut", "FSShellCmdAborted", "ExecuteError"]


class ExecuteError(Exception):
    pass


class FSFileExistsError(Exception):
    pass


class FSFileNotExistsError(Exception):
    pass


class FSTimeOut(Exception):
    pass


class FSShellCmdAborted(ExecuteError):
    pass


class FS:
    pass


class LocalFS(FS):
    """The local file system, with the methods of Paddle's FS interface."""

    def ls_dir(self, fs_path):
        """``(dirs, files)`` directly under ``fs_path`` (two empty lists if it is missing)."""
        if not self.is_exist(fs_path):
            return [], []
        dirs, files = [], []
        for f in os.listdir(fs_path):
            (dirs if os.path.isdir(os.path.join(fs_path, f)) else files).append(f)
        return dirs, files

    def list_dirs(self, fs_path):
        return self.ls_dir(fs_path)[0]

    def mkdirs(self, fs_path):
        if os.path.isfile(fs_path):
            raise FSFileExistsError(f"{fs_path} is already a file")
        os.makedirs(fs_path, exist_ok=True)

    def rename(self, fs_src_path, fs_dst_path):
        os.rename(fs_src_path, fs_dst_path)

    def _rmr(self, fs_path):
        shutil.rmtree(fs_path)

    def _rm(self, fs_path):
        os.remove(fs_path)

    def delete(self, fs_path):
        if not self.is_exist(fs_path):
            return
        if os.path.isfile(fs_path) or os.path.islink(fs_path):
            return self._rm(fs_path)
        return self._rmr(fs_path)

    def need_upload_download(self):
        return False

    def is_file(self, fs_path):
        return os.path.isfile(fs_path)

    def is_dir(self, fs_path):
        return os.path.isdir(fs_path)

    def is_exist(self, fs_path):
        return os.path.exists(fs_path)

    def touch(self, fs_path, exist_ok=True):
        if self.is_exist(fs_path):
            if exist_ok:
                return
            raise FSFileExistsError(fs_path)
        with open(fs_path, "a"):
            pass

    def mv(self, src_path, dst_path, overwrite=False, test_exists=False):
        if not self.is_exist(src_path):
            raise FSFileNotExistsError(src_path)
        if overwrite and self.is_exist(dst_path):
            self.delete(dst_path)
        if self.is_exist(dst_path):
            raise FSFileExistsError(dst_path)
        return self.rename(src_path, dst_path)

    def upload(self, local_path, fs_path):
        self._copy(local_path, fs_path)

    def download(self, fs_path, local_path):
        self._copy(fs_path, local_path)

    def _copy(self, src, dst):
        if not self.is_exist(src):
            raise FSFileNotExistsError(src)
        if os.path.isdir(src):
            shutil.copytree(src, dst)
        else:
            shutil.copy(src, dst)

    def cat(self, fs_path=None):
        with open(fs_path) as f:
            return f.read()

    def upload_dir(self, local_dir, dest_dir):
        self._copy(local_dir, dest_dir)


class HDFSClient(FS):
    """Paddle drives HDFS through the ``hadoop fs`` command line; paddle_compat does not: every
    method raises NotImplementedError (copy files with ``hadoop fs`` yourself, or use
    ``LocalFS`` on a mounted file system)."""

    def __init__(self, hadoop_home, configs, time_out=5 * 60 * 1000, sleep_inter=1000):
        self._hadoop_home = hadoop_home
        self._configs = configs

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)

        def unsupported(*args, **kwargs):
            raise NotImplementedError(
                f"HDFSClient.{name}: HDFS is not supported by paddle_compat (no hadoop "
                f"client; hadoop_home={self._hadoop_home!r}); use LocalFS on a mounted path")
        return unsupported
