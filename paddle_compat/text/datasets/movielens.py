"""``Movielens``: MovieLens 1M (``ml-1m.zip``: movies.dat, users.dat, ratings.dat), one sample
per rating, split into train/test by numpy's global random generator as Paddle does."""
import re
import zipfile

import numpy as np

from ...io import Dataset
from ._common import check_exists_and_download

__all__ = ["Movielens", "MovieInfo", "UserInfo"]

age_table = [1, 18, 25, 35, 45, 50, 56]
URL = "https://dataset.bj.bcebos.com/movielens%2Fml-1m.zip"
MD5 = "c4d9eecfca2ab87c1945afe126590906"


class MovieInfo:
    """A movie: id, categories and title (the year removed)."""

    def __init__(self, index, categories, title):
        self.index = int(index)
        self.categories = categories
        self.title = title

    def value(self, categories_dict, movie_title_dict):
        """[[id], [category ids], [title word ids]]."""
        return [[self.index], [categories_dict[c] for c in self.categories],
                [movie_title_dict[w.lower()] for w in self.title.split()]]

    def __str__(self):
        return (f"<MovieInfo id({self.index}), title({self.title}), "
                f"categories({self.categories})>")

    __repr__ = __str__


class UserInfo:
    """A user: id, gender, age bracket (index into ``age_table``) and job id."""

    def __init__(self, index, gender, age, job_id):
        self.index = int(index)
        self.is_male = gender == "M"
        self.age = age_table.index(int(age))
        self.job_id = int(job_id)

    def value(self):
        """[[id], [0 male / 1 female], [age bracket], [job id]]."""
        return [[self.index], [0 if self.is_male else 1], [self.age], [self.job_id]]

    def __str__(self):
        gender = "M" if self.is_male else "F"
        return (f"<UserInfo id({self.index}), gender({gender}), age({age_table[self.age]}), "
                f"job({self.job_id})>")

    __repr__ = __str__


class Movielens(Dataset):
    """``dataset[i]`` is eight arrays: user id, gender, age bracket, job, movie id, category
    ids, title word ids, and the rating mapped to ``2 * stars - 5`` (float).

    ``np.random.seed(rand_seed)`` is called, then one ``np.random.random()`` per rating line
    puts the line in 'test' when below ``test_ratio`` (so the split matches Paddle's and the
    global numpy generator moves as it does in Paddle). ``categories_dict`` and
    ``movie_title_dict`` number the categories and lower-cased title words; Paddle numbers
    them in Python set order (which changes from run to run), here they are numbered in
    sorted order.

    Args:
        data_file (str, optional): ``ml-1m.zip``; None (and ``download``) takes it from
            ``~/.cache/paddle/dataset/sentiment`` (Paddle's folder for it; nothing is
            downloaded: a missing file raises RuntimeError saying where to put it).
        mode (str): 'train' or 'test'.
        test_ratio (float): the share of ratings in 'test'.
        rand_seed (int): the numpy seed of the split.
        download (bool): allow the cache look-up when ``data_file`` is None.
    """

    def __init__(self, data_file=None, mode="train", test_ratio=0.1, rand_seed=0,
                 download=True):
        assert mode.lower() in ["train", "test"], \
            f"mode should be 'train', 'test', but got {mode}"
        self.mode = mode.lower()
        self.data_file = data_file
        if self.data_file is None:
            assert download, "data_file is not set and downloading automatically is disabled"
            self.data_file = check_exists_and_download(data_file, URL, MD5, "sentiment",
                                                       download)
        self.test_ratio = test_ratio
        self.rand_seed = rand_seed
        np.random.seed(rand_seed)
        self._load_meta_info()
        self._load_data()

    def _load_meta_info(self):
        pattern = re.compile(r"^(.*)\((\d+)\)$")
        self.movie_info, self.user_info = {}, {}
        title_words, categories = set(), set()
        with zipfile.ZipFile(self.data_file) as package:
            with package.open("ml-1m/movies.dat") as movies:
                for line in movies:
                    movie_id, title, cats = line.decode("latin").strip().split("::")
                    cats = cats.split("|")
                    categories.update(cats)
                    title = pattern.match(title).group(1)
                    self.movie_info[int(movie_id)] = MovieInfo(movie_id, cats, title)
                    title_words.update(w.lower() for w in title.split())
            with package.open("ml-1m/users.dat") as users:
                for line in users:
                    uid, gender, age, job, _ = line.decode("latin").strip().split("::")
                    self.user_info[int(uid)] = UserInfo(uid, gender, age, job)
        self.movie_title_dict = {w: i for i, w in enumerate(sorted(title_words))}
        self.categories_dict = {c: i for i, c in enumerate(sorted(categories))}

    def _load_data(self):
        self.data = []
        is_test = self.mode == "test"
        with zipfile.ZipFile(self.data_file) as package, \
                package.open("ml-1m/ratings.dat") as ratings:
            for line in ratings:
                line = line.decode("latin")
                if (np.random.random() < self.test_ratio) == is_test:
                    uid, mov_id, rating, _ = line.strip().split("::")
                    usr, mov = self.user_info[int(uid)], self.movie_info[int(mov_id)]
                    self.data.append(usr.value()
                                     + mov.value(self.categories_dict, self.movie_title_dict)
                                     + [[float(rating) * 2 - 5.0]])

    def __getitem__(self, idx):
        return tuple(np.array(d) for d in self.data[idx])

    def __len__(self):
        return len(self.data)
