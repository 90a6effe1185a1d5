//! The app's integration tests, in one binary (each test binary links all of Bevy).
//!
//! `headless`: a Bevy `App` with `MinimalPlugins` and the game's input and state plugins, fed
//! input messages. `slicing`: photos decoded, turned upright, cropped and cut.

mod headless {
    use std::time::{Duration, Instant};

    use bevy::input::InputPlugin;
    use bevy::input::keyboard::{Key, KeyboardInput};
    use bevy::prelude::*;
    use bevy::state::app::StatesPlugin;
    use npuzzle::{Board, Move, parse_board};
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    use snapslide::CorePlugin;
    use snapslide::game::{Difficulty, Game};
    use snapslide::input::{BoardInput, BoardLayout};
    use snapslide::play::{
        BestScores, CurrentGame, GameChanged, GameCommand, LastResult, Phase, Settings,
    };
    use snapslide::solver_task::{Playback, SolverCommand};

    const CELL: f32 = 100.0;

    fn app_with(board: Board) -> App {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin, CorePlugin));
        app.insert_resource(BoardLayout {
            center: Vec2::ZERO,
            cell: CELL,
            width: board.width(),
            height: board.height(),
        });
        app.update();
        app.world_mut()
            .write_message(GameCommand::Start(Box::new(Game::new(
                board,
                Difficulty::Custom,
            ))));
        app.update();
        app.update();
        app
    }

    fn board_of(app: &App) -> Board {
        app.world().resource::<CurrentGame>().game.board().clone()
    }

    fn game_of(app: &App) -> Game {
        app.world().resource::<CurrentGame>().game.clone()
    }

    fn center_of(app: &App, cell: usize) -> Vec2 {
        app.world().resource::<BoardLayout>().cell_center(cell)
    }

    fn send(app: &mut App, input: BoardInput) {
        app.world_mut().write_message(input);
        app.update();
    }

    fn phase(app: &App) -> Phase {
        *app.world().resource::<State<Phase>>().get()
    }

    #[test]
    fn a_tap_on_a_tile_beside_the_blank_moves_it() {
        let mut app = app_with(parse_board("1 2 3 / 4 0 5 / 7 8 6").unwrap());
        let point = center_of(&app, 5); // the 5, right of the blank
        send(&mut app, BoardInput::Tap(point));
        assert_eq!(
            board_of(&app),
            parse_board("1 2 3 / 4 5 0 / 7 8 6").unwrap()
        );
        assert_eq!(game_of(&app).moves(), 1);
    }

    #[test]
    fn a_tap_three_cells_along_the_row_slides_three_tiles() {
        let mut app = app_with(parse_board("1 2 3 4 / 5 6 7 8 / 9 10 11 12 / 0 13 14 15").unwrap());
        let point = center_of(&app, 15) + Vec2::new(30.0, -20.0); // off-centre, same cell
        send(&mut app, BoardInput::Tap(point));
        let board = board_of(&app);
        assert!(board.is_goal(), "{board:?}");
        assert_eq!(game_of(&app).moves(), 3);
        // The move that completes the board is the win.
        app.update();
        assert_eq!(phase(&app), Phase::Won);
    }

    #[test]
    fn a_win_by_the_player_records_the_best_score() {
        let mut app = app_with(parse_board("1 2 3 / 4 5 6 / 0 7 8").unwrap());
        send(&mut app, BoardInput::Slide(Move::Right));
        send(&mut app, BoardInput::Slide(Move::Right));
        app.update();
        assert_eq!(phase(&app), Phase::Won);
        let result = app.world().resource::<LastResult>().clone();
        assert_eq!(result.moves, 2);
        assert!(result.record && !result.solved_by_app);
        let key = BestScores::key(3, 3, Difficulty::Custom);
        let best = app.world().resource::<BestScores>().get(&key).unwrap();
        assert_eq!(best.moves, 2);
        // Moves after the win change nothing.
        send(&mut app, BoardInput::Slide(Move::Left));
        assert!(board_of(&app).is_goal());
        assert_eq!(game_of(&app).moves(), 2);
    }

    #[test]
    fn a_swipe_moves_the_right_tile_and_an_illegal_tap_changes_nothing() {
        let mut app = app_with(parse_board("1 2 3 / 4 0 5 / 7 8 6").unwrap());
        // Swipe right (world x grows): the 4, left of the blank, moves right.
        send(&mut app, BoardInput::Swipe(Vec2::new(90.0, 4.0)));
        assert_eq!(
            board_of(&app),
            parse_board("1 2 3 / 0 4 5 / 7 8 6").unwrap()
        );
        // Swipe up: the 7, below the blank, moves up.
        send(&mut app, BoardInput::Swipe(Vec2::new(-3.0, 90.0)));
        assert_eq!(
            board_of(&app),
            parse_board("1 2 3 / 7 4 5 / 0 8 6").unwrap()
        );

        // A diagonal tile: nothing changes, and the game says "bump".
        let before = board_of(&app);
        let mut cursor = app
            .world()
            .resource::<Messages<GameChanged>>()
            .get_cursor_current();
        let point = center_of(&app, 4);
        send(&mut app, BoardInput::Tap(point));
        assert_eq!(board_of(&app), before);
        assert_eq!(game_of(&app).moves(), 2);
        let changes: Vec<_> = cursor
            .read(app.world().resource::<Messages<GameChanged>>())
            .cloned()
            .collect();
        assert!(
            changes.contains(&GameChanged::Bumped(Some(4))),
            "{changes:?}"
        );
        // A tap beside the board is ignored.
        send(&mut app, BoardInput::Tap(Vec2::new(1000.0, 0.0)));
        assert_eq!(board_of(&app), before);
    }

    #[test]
    fn arrow_keys_and_wasd_move_tiles() {
        let mut app = app_with(parse_board("1 2 3 / 4 0 5 / 7 8 6").unwrap());
        let press = |app: &mut App, key: KeyCode| {
            let window = Entity::PLACEHOLDER;
            app.world_mut().write_message(KeyboardInput {
                key_code: key,
                logical_key: Key::Unidentified(bevy::input::keyboard::NativeKey::Unidentified),
                state: bevy::input::ButtonState::Pressed,
                text: None,
                repeat: false,
                window,
            });
            app.update();
            app.world_mut().write_message(KeyboardInput {
                key_code: key,
                logical_key: Key::Unidentified(bevy::input::keyboard::NativeKey::Unidentified),
                state: bevy::input::ButtonState::Released,
                text: None,
                repeat: false,
                window,
            });
            app.update();
        };
        press(&mut app, KeyCode::ArrowLeft); // the 5 slides left
        assert_eq!(
            board_of(&app),
            parse_board("1 2 3 / 4 5 0 / 7 8 6").unwrap()
        );
        press(&mut app, KeyCode::KeyW); // the 6 slides up: solved
        assert!(board_of(&app).is_goal());
        app.update();
        assert_eq!(phase(&app), Phase::Won);
    }

    #[test]
    fn undo_and_redo_work() {
        let start = parse_board("1 2 3 / 4 0 5 / 7 8 6").unwrap();
        let mut app = app_with(start.clone());
        send(&mut app, BoardInput::Slide(Move::Up));
        send(&mut app, BoardInput::Slide(Move::Left));
        let after = board_of(&app);
        assert_eq!(game_of(&app).moves(), 2);
        for _ in 0..2 {
            app.world_mut().write_message(GameCommand::Undo);
            app.update();
        }
        assert_eq!(board_of(&app), start);
        assert_eq!(game_of(&app).moves(), 0);
        for _ in 0..2 {
            app.world_mut().write_message(GameCommand::Redo);
            app.update();
        }
        assert_eq!(board_of(&app), after);
        assert_eq!(game_of(&app).moves(), 2);
        app.world_mut().write_message(GameCommand::Restart);
        app.update();
        assert_eq!(board_of(&app), start);
    }

    fn key(app: &mut App, key_code: KeyCode, pressed: bool) {
        app.world_mut().write_message(KeyboardInput {
            key_code,
            logical_key: Key::Unidentified(bevy::input::keyboard::NativeKey::Unidentified),
            state: if pressed {
                bevy::input::ButtonState::Pressed
            } else {
                bevy::input::ButtonState::Released
            },
            text: None,
            repeat: false,
            window: Entity::PLACEHOLDER,
        });
        app.update();
    }

    #[test]
    fn ctrl_z_undoes_and_ctrl_y_redoes() {
        let start = parse_board("1 2 3 / 4 0 5 / 7 8 6").unwrap();
        let mut app = app_with(start.clone());
        send(&mut app, BoardInput::Slide(Move::Up));
        let after = board_of(&app);
        key(&mut app, KeyCode::ControlLeft, true);
        key(&mut app, KeyCode::KeyZ, true);
        key(&mut app, KeyCode::KeyZ, false);
        app.update();
        assert_eq!(board_of(&app), start);
        key(&mut app, KeyCode::KeyY, true);
        key(&mut app, KeyCode::KeyY, false);
        key(&mut app, KeyCode::ControlLeft, false);
        app.update();
        assert_eq!(board_of(&app), after);
        // With Ctrl held, WASD are shortcuts' letters, not moves.
        assert_eq!(game_of(&app).moves(), 1);
    }

    #[test]
    fn input_while_animating_is_queued_not_lost() {
        let mut app = app_with(parse_board("1 2 3 / 4 0 5 / 7 8 6").unwrap());
        app.world_mut()
            .resource_mut::<snapslide::play::Animating>()
            .0 = true;
        app.world_mut()
            .write_message(BoardInput::Slide(Move::Right));
        app.world_mut().write_message(BoardInput::Slide(Move::Down));
        app.update();
        app.update();
        assert_eq!(game_of(&app).moves(), 0, "nothing moves during a slide");
        app.world_mut()
            .resource_mut::<snapslide::play::Animating>()
            .0 = false;
        app.update();
        app.update();
        assert!(board_of(&app).is_goal());
        assert_eq!(game_of(&app).moves(), 2);
    }

    fn run_until(app: &mut App, limit: Duration, done: impl Fn(&App) -> bool) -> bool {
        let start = Instant::now();
        while start.elapsed() < limit {
            app.update();
            if done(app) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        false
    }

    #[test]
    fn solve_then_play_the_solution_reaches_the_win() {
        let board = npuzzle::random::shuffled(npuzzle::Shape::new(3, 3).unwrap(), 60, 11);
        assert!(!board.is_goal());
        let mut app = app_with(board);
        app.world_mut().resource_mut::<Settings>().speed = 1000.0;
        let before = board_of(&app);
        app.world_mut().write_message(SolverCommand::Solve);
        app.update();
        // The solver runs as a task: this frame only starts it (or, if it was that quick,
        // receives the moves), and no tile moves until the playback's next step.
        assert_eq!(board_of(&app), before);
        let found = run_until(&mut app, Duration::from_secs(30), |app| {
            app.world().resource::<Playback>().active()
        });
        assert!(
            found,
            "the solver found no solution: {:?}",
            app.world()
                .resource::<snapslide::solver_task::SolverStatus>()
                .0
        );
        let won = run_until(&mut app, Duration::from_secs(30), |app| {
            phase(app) == Phase::Won
        });
        assert!(won, "the solution did not reach the win");
        let game = game_of(&app);
        assert!(game.board().is_goal());
        assert!(game.solved_by_app());
    }

    #[test]
    fn a_hint_then_a_second_tap_plays_its_move() {
        let mut app = app_with(parse_board("1 2 3 / 4 5 6 / 0 7 8").unwrap());
        app.world_mut().write_message(SolverCommand::Hint);
        app.update();
        let shown = run_until(&mut app, Duration::from_secs(10), |app| {
            app.world()
                .resource::<snapslide::solver_task::HintShown>()
                .0
                .is_some()
        });
        assert!(shown);
        app.world_mut().write_message(SolverCommand::Hint);
        app.update();
        app.update();
        assert_eq!(
            board_of(&app),
            parse_board("1 2 3 / 4 5 6 / 7 0 8").unwrap()
        );
        assert!(game_of(&app).solved_by_app());
    }

    #[test]
    fn ten_thousand_random_inputs_never_panic_and_keep_a_permutation() {
        let board = npuzzle::random::shuffled(npuzzle::Shape::new(4, 4).unwrap(), 100, 3);
        let mut app = app_with(board);
        let mut rng = StdRng::seed_from_u64(2026);
        let half = 2.5 * CELL;
        for i in 0..10_000 {
            let choice = rng.random_range(0..10);
            match choice {
                0..=3 => {
                    let point =
                        Vec2::new(rng.random_range(-half..half), rng.random_range(-half..half));
                    app.world_mut().write_message(BoardInput::Tap(point));
                }
                4..=5 => {
                    let delta = Vec2::new(
                        rng.random_range(-200.0..200.0),
                        rng.random_range(-200.0..200.0),
                    );
                    app.world_mut().write_message(BoardInput::Swipe(delta));
                }
                6..=7 => {
                    let mv = Move::ALL[rng.random_range(0..4)];
                    app.world_mut().write_message(BoardInput::Slide(mv));
                }
                8 => {
                    let command = if rng.random_bool(0.5) {
                        GameCommand::Undo
                    } else {
                        GameCommand::Redo
                    };
                    app.world_mut().write_message(command);
                }
                _ => {
                    if i % 500 == 9 {
                        app.world_mut()
                            .write_message(GameCommand::NewGame { seed: Some(i) });
                    } else {
                        app.world_mut().write_message(GameCommand::Restart);
                    }
                }
            }
            app.update();
            let board = board_of(&app);
            let mut tiles = board.tiles().to_vec();
            tiles.sort_unstable();
            assert!(
                tiles.iter().enumerate().all(|(i, &t)| t as usize == i),
                "not a permutation after input {i}: {board:?}"
            );
        }
    }
}

mod slicing {
    use std::io::Cursor;
    use std::path::Path;

    use image::{DynamicImage, Rgba, RgbaImage};
    use snapslide::photo::{self, PhotoError};

    fn fixture(name: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
    }

    fn colour(column: u32, row: u32) -> Rgba<u8> {
        Rgba([(column * 60) as u8, (row * 60) as u8, 200, 255])
    }

    #[test]
    fn tiles_of_a_known_image_have_the_right_pixels() {
        let n = 4;
        let side = 40;
        let image = RgbaImage::from_fn(n * side, n * side, |x, y| colour(x / side, y / side));
        let (tiles, tile_side) = photo::slice(&image, n);
        assert_eq!(tile_side, side);
        assert_eq!(tiles.len(), 16);
        for (index, tile) in tiles.iter().enumerate() {
            let (column, row) = (index as u32 % n, index as u32 / n);
            assert_eq!((tile.width(), tile.height()), (side, side));
            assert!(
                tile.pixels().all(|p| *p == colour(column, row)),
                "tile {index} has a pixel of the wrong colour"
            );
        }
    }

    #[test]
    fn the_crop_keeps_the_centre_square() {
        // 300 wide, 200 high: 50 red columns either side of a green square.
        let image = RgbaImage::from_fn(300, 200, |x, _| {
            if (50..250).contains(&x) {
                Rgba([0, 255, 0, 255])
            } else {
                Rgba([255, 0, 0, 255])
            }
        });
        let square = photo::square(&DynamicImage::ImageRgba8(image), 200);
        assert_eq!((square.width(), square.height()), (200, 200));
        assert!(square.pixels().all(|p| *p == Rgba([0, 255, 0, 255])));
        // Scaled down, it stays green but for filtering at the edges.
        let prepared = photo::prepare(&DynamicImage::ImageRgba8(square), 3);
        assert_eq!(prepared.tiles.len(), 9);
        assert_eq!(prepared.square.width() % 3, 0);
    }

    fn mean_difference(a: &RgbaImage, b: &RgbaImage) -> f64 {
        let total: u64 = a
            .pixels()
            .zip(b.pixels())
            .map(|(p, q)| {
                (0..3)
                    .map(|c| (p.0[c] as i64 - q.0[c] as i64).unsigned_abs())
                    .sum::<u64>()
            })
            .sum();
        total as f64 / (a.width() * a.height() * 3) as f64
    }

    #[test]
    fn the_exif_fixture_comes_out_upright() {
        let upright =
            photo::load_file(&fixture("tests/fixtures/chelsea-exif-rotated.jpg")).unwrap();
        assert_eq!((upright.width(), upright.height()), (451, 300));
        // It matches the PNG it was made from, and not a sideways or flipped reading.
        let reference = photo::load_file(&fixture("assets/photos/chelsea.png"))
            .unwrap()
            .to_rgba8();
        let ours = upright.to_rgba8();
        let flipped = image::imageops::rotate180(&ours);
        let same = mean_difference(&ours, &reference);
        let other = mean_difference(&flipped, &reference);
        assert!(same < 12.0, "mean difference {same}");
        assert!(
            other > same * 2.0,
            "a rotated reading is as close ({other} vs {same})"
        );
    }

    #[test]
    fn a_corrupt_file_is_refused() {
        let good = std::fs::read(fixture("assets/photos/chelsea.png")).unwrap();
        let truncated = &good[..good.len() / 3];
        assert!(matches!(
            photo::decode(truncated),
            Err(PhotoError::Decode(_))
        ));
        assert!(matches!(
            photo::decode(b"definitely not an image"),
            Err(PhotoError::UnknownFormat)
        ));
        assert!(photo::load_file(Path::new("/no/such/photo.png")).is_err());
    }

    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = 0xffff_ffffu32;
        for &byte in bytes {
            crc ^= byte as u32;
            for _ in 0..8 {
                crc = if crc & 1 != 0 {
                    (crc >> 1) ^ 0xedb8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let mut body = kind.to_vec();
        body.extend_from_slice(data);
        out.extend_from_slice(&body);
        out.extend_from_slice(&crc32(&body).to_be_bytes());
    }

    #[test]
    fn an_image_bomb_is_refused() {
        // A valid PNG header declaring 100,000 × 100,000 pixels (40 GB decoded).
        let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
        let mut ihdr = Vec::new();
        ihdr.extend_from_slice(&100_000u32.to_be_bytes());
        ihdr.extend_from_slice(&100_000u32.to_be_bytes());
        ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
        chunk(&mut png, b"IHDR", &ihdr);
        chunk(
            &mut png,
            b"IDAT",
            &[0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01],
        );
        chunk(&mut png, b"IEND", &[]);
        match photo::decode(&png) {
            Err(PhotoError::TooLarge(_)) => {}
            other => panic!("expected TooLarge, got {other:?}"),
        }
        // A small image through the same path is fine.
        let mut small = Vec::new();
        DynamicImage::ImageRgba8(RgbaImage::new(8, 8))
            .write_to(&mut Cursor::new(&mut small), image::ImageFormat::Png)
            .unwrap();
        assert!(photo::decode(&small).is_ok());
    }
}
