"""The notebooks' display helpers find the repository from any folder inside it and show the
workflow's files as they are."""

import pytest
from conftest import REPO

from attnspec.workflow.companion import PaperOutputs, repository_root


def test_root_is_found_from_the_notebooks_folder_and_from_the_root():
    assert repository_root(REPO / "workflow" / "notebooks") == REPO
    assert repository_root(REPO) == REPO


def test_outside_a_repository_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="no Snakefile"):
        repository_root(tmp_path)


def test_markdown_is_the_file_verbatim(tmp_path):
    (tmp_path / "Snakefile").write_text("")
    folder = tmp_path / "figures" / "paperB"
    folder.mkdir(parents=True)
    (folder / "B1-sticking.md").write_text("**Paper B, figure B1.**\nsecond line\n")
    outputs = PaperOutputs("B", root=folder)
    assert outputs.folder == folder
    assert outputs.markdown("B1-sticking").data == "**Paper B, figure B1.**\nsecond line\n"
    with pytest.raises(FileNotFoundError):
        outputs.markdown("B2-gap")
